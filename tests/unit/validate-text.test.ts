import { describe, expect, it } from "vitest";
import { findFlawedText, rawPathProblem, textFlaw } from "@/lib/api/validate-text";
import { planHttpRequest, RequestPlanError } from "@/lib/connectors/runtime/http-request";

/** The edge check of untrusted text (issue 10, point 2): what it refuses, and where it says. */

describe("textFlaw / findFlawedText", () => {
  it("finds NUL and unpaired surrogates, and accepts paired ones and ordinary Unicode", () => {
    expect(textFlaw("a\u0000b")).toBe("nul");
    expect(textFlaw("a\ud800")).toBe("surrogate");
    expect(textFlaw("\udc00x")).toBe("surrogate");
    expect(textFlaw("😀 é \u200b")).toBeNull();
  });

  it("names the path of the first flawed string or key, however deep", () => {
    expect(findFlawedText({ tools: [{ name: "ok" }, { name: "x\u0000" }] })).toEqual({ path: ["tools", 1, "name"], flaw: "nul" });
    expect(findFlawedText({ headers: { "a\ud800": "v" } })).toEqual({ path: ["headers", "a\ud800"], flaw: "surrogate" });
    let deep: unknown = "\u0000";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const started = performance.now();
    expect(findFlawedText(deep)?.flaw).toBe("nul");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(findFlawedText({ a: [1, true, null, "fine"] })).toBeNull();
  });
});

describe("rawPathProblem", () => {
  it("refuses escapes that are not UTF-8 and escaped NULs; accepts ordinary escapes", () => {
    expect(rawPathProblem("/mcp/%C0%AE%C0%AE")).toContain("not valid UTF-8");
    expect(rawPathProblem("/api/v1/orgs/%ED%A0%80")).toContain("not valid UTF-8");
    expect(rawPathProblem("/api/v1/orgs/%zz")).toContain("not valid UTF-8");
    expect(rawPathProblem("/mcp/%00")).toContain("NUL");
    expect(rawPathProblem("/api/v1/files/caf%C3%A9%20x")).toBeNull();
    expect(rawPathProblem("/signin")).toBeNull();
  });
});

describe("a tool's path argument with a lone surrogate (point 13)", () => {
  it("is refused naming the argument, not reported as an invalid base URL", () => {
    const plan = () => planHttpRequest("https://api.example.com", { method: "GET", path: "/orders/{id}" }, { id: "a\ud800" });
    expect(plan).toThrow(RequestPlanError);
    expect(plan).toThrow('Invalid arguments: path parameter "id" contains an unpaired UTF-16 surrogate');
  });
});
