import { describe, expect, it } from "vitest";
import { normalizePercentEncoding, normalizeResourceUri, removeDotSegments } from "@/lib/resources/uri-normalization";

const same = (a: string, b: string) => expect(normalizeResourceUri(a)).toBe(normalizeResourceUri(b));
const differ = (a: string, b: string) => expect(normalizeResourceUri(a)).not.toBe(normalizeResourceUri(b));

describe("Duplicate URIs: compared after URI normalization, e.g. CRM://schema and crm://schema", () => {
  it("CRM://schema and crm://schema are the same URI", () => {
    same("CRM://schema", "crm://schema");
    expect(normalizeResourceUri("CRM://Schema")).toBe("crm://schema");
  });

  it.each([
    ["scheme case", "HTTPS://docs.example.com/a", "https://docs.example.com/a"],
    ["host case", "https://Docs.Example.COM/a", "https://docs.example.com/a"],
    ["percent-escape hex case", "crm://x/a%2fb", "crm://x/a%2Fb"],
    ["escaped unreserved characters", "crm://x/%7Euser/%41bc", "crm://x/~user/Abc"],
    ["the https default port", "https://docs.example.com:443/a", "https://docs.example.com/a"],
    ["the http default port", "http://docs.example.com:80/a", "http://docs.example.com/a"],
    ["an empty port", "crm://schema:/a", "crm://schema/a"],
    ["leading zeros of a port", "crm://schema:0080/a", "crm://schema:80/a"],
    ["an empty http path", "https://docs.example.com", "https://docs.example.com/"],
    ["dot-segments", "https://docs.example.com/a/./b/../c", "https://docs.example.com/a/c"],
    ["escaped dot-segments", "crm://x/a/%2E%2E/b", "crm://x/b"],
    ["escapes in the host", "crm://%41cme/x", "crm://acme/x"],
    ["escapes in query and fragment", "crm://x/p?q=%7e#f%7e", "crm://x/p?q=~#f~"],
  ])("equal up to %s", (_label, a, b) => same(a, b));

  it.each([
    ["path case", "crm://schema/Tables", "crm://schema/tables"],
    ["userinfo case", "crm://Bob@x/a", "crm://bob@x/a"],
    ["a reserved character and its escape", "crm://x/a/b", "crm://x/a%2Fb"],
    ["a non-default port", "https://docs.example.com:8443/a", "https://docs.example.com/a"],
    ["the default port of another scheme", "crm://x:443/a", "crm://x/a"],
    ["an empty path outside http(s)", "crm://schema", "crm://schema/"],
    ["query", "crm://x/a?x=1", "crm://x/a?x=2"],
    ["fragment", "crm://x/a#one", "crm://x/a#two"],
    ["trailing slash", "https://x.example/a", "https://x.example/a/"],
  ])("differ by %s", (_label, a, b) => differ(a, b));

  it("keeps the hex of escapes in the host uppercase while lowercasing the host", () => {
    expect(normalizeResourceUri("crm://EX%c3%A9/a")).toBe("crm://ex%C3%A9/a");
  });

  it("leaves dot-segments of rootless paths alone (urn:a/../b is not urn:b)", () => {
    expect(normalizeResourceUri("urn:a/../b")).toBe("urn:a/../b");
    expect(normalizeResourceUri("URN:ISBN:0451450523")).toBe("urn:ISBN:0451450523");
  });

  it("keeps IPv6 literals intact and still drops their default port", () => {
    expect(normalizeResourceUri("HTTP://[::1]:80")).toBe("http://[::1]/");
    expect(normalizeResourceUri("http://[::1]:8080/a")).toBe("http://[::1]:8080/a");
  });

  it("normalizes the reserved scheme like any other (anythingmcp: lookups ignore scheme and host case)", () => {
    expect(normalizeResourceUri("AnythingMCP://SERVER/s1/instructions")).toBe("anythingmcp://server/s1/instructions");
  });

  it("is idempotent", () => {
    for (const uri of ["CRM://Schema:/a/./b/../%7e?%2f#%41", "https://A.example:443", "urn:x:y", "file:///etc/../hosts"]) {
      const once = normalizeResourceUri(uri);
      expect(normalizeResourceUri(once)).toBe(once);
    }
  });
});

describe("RFC 3986 building blocks", () => {
  it.each([
    ["/a/b/c/./../../g", "/a/g"],
    ["mid/content=5/../6", "mid/6"],
    ["/../a", "/a"],
    ["/a/..", "/"],
    ["/a/.", "/a/"],
    ["", ""],
  ])("remove_dot_segments(%j) = %j (§5.2.4)", (input, output) => {
    expect(removeDotSegments(input)).toBe(output);
  });

  it("percent-encoding normalization decodes only unreserved characters", () => {
    expect(normalizePercentEncoding("%2d%2e%5f%7e%30%61%20%2f%3A")).toBe("-._~0a%20%2F%3A");
  });
});
