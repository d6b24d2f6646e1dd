import { describe, expect, it } from "vitest";
import { isReservedUri, isValidResourceUri, plainMimeTypeOrNull } from "@/lib/resources/stored-resource-rules";

describe("isValidResourceUri", () => {
  it.each([
    "crm://schema",
    "CRM://schema",
    "https://example.com/docs/setup?x=1#top",
    "file:///etc/hosts",
    "urn:isbn:0451450523",
    "mailto:ops@example.com",
    "x-custom.scheme+v1://a/b%20c",
    "files://fl_0123456789abcdef01234567",
  ])("accepts %s", (uri) => {
    expect(isValidResourceUri(uri)).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["relative path", "/docs/setup"],
    ["no scheme", "schema"],
    ["scheme starting with a digit", "1crm://x"],
    ["scheme with an underscore", "my_crm://x"],
    ["nothing after the colon", "crm:"],
    ["leading space", " crm://schema"],
    ["inner space", "crm://my schema"],
    ["newline", "crm://schema\nx"],
    ["tab", "crm://a\tb"],
    ["broken percent escape", "crm://a%zzb"],
    ["lone percent", "crm://a%"],
    ["unparseable authority", "http://exa mple.com"],
    ["just a colon", ":"],
    ["too long", `crm://${"a".repeat(2100)}`],
  ])("refuses %s", (_label, uri) => {
    expect(isValidResourceUri(uri)).toBe(false);
  });

  it("refuses non-strings", () => {
    expect(isValidResourceUri(undefined)).toBe(false);
    expect(isValidResourceUri(null)).toBe(false);
    expect(isValidResourceUri(42)).toBe(false);
    expect(isValidResourceUri({ uri: "crm://x" })).toBe(false);
  });
});

describe("isReservedUri", () => {
  it.each([
    "anythingmcp://server/s1/instructions",
    "AnythingMCP://server/s1/knowledge-graph",
    "ANYTHINGMCP:whatever",
    "  anythingmcp://x",
  ])("flags %s", (uri) => {
    expect(isReservedUri(uri)).toBe(true);
  });

  it.each(["crm://anythingmcp", "anythingmcpx://a", "anything-mcp://a", "x:anythingmcp:", "", 7])("does not flag %s", (uri) => {
    expect(isReservedUri(uri)).toBe(false);
  });
});

describe("plainMimeTypeOrNull", () => {
  it.each([
    ["text/markdown", "text/markdown"],
    ["Text/Plain", "text/plain"],
    ["application/vnd.api+json", "application/vnd.api+json"],
    [" application/json ", "application/json"],
  ])("keeps %s", (input, expected) => {
    expect(plainMimeTypeOrNull(input)).toBe(expected);
  });

  it.each([
    ["with parameters", "text/plain; charset=utf-8"],
    ["no subtype", "text"],
    ["empty subtype", "text/"],
    ["wildcard", "*/*"],
    ["wildcard subtype", "text/*"],
    ["two slashes", "text/plain/x"],
    ["inner space", "text /plain"],
    ["empty", ""],
    ["not a string", 12],
    ["null", null],
  ])("refuses %s", (_label, input) => {
    expect(plainMimeTypeOrNull(input)).toBeNull();
  });
});
