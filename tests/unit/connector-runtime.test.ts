import { describe, expect, it } from "vitest";
import { AUDIT_EXCERPT_BYTES, auditExcerpt, isSecretKey } from "@/lib/connectors/runtime/audit-excerpt";
import { planHttpRequest, RequestPlanError } from "@/lib/connectors/runtime/http-request";
import { invalidArgumentsMessage } from "@/lib/connectors/runtime/validate-arguments";
import { servesHostResources } from "@/lib/host-resources/capability";

describe("http tool mapping (ADMIN_API.md Connectors)", () => {
  it("keeps the base URL's own path and fills {param} URL-encoded", () => {
    const plan = planHttpRequest("https://api.example.com/v2/", { method: "GET", path: "/users/{id}/posts/{slug}" }, { id: "a b", slug: "x/y?", page: 2 });
    expect(plan.url.href).toBe("https://api.example.com/v2/users/a%20b/posts/x%2Fy%3F?page=2");
    expect(plan.body).toBeNull();
  });

  it("sends the other arguments as a JSON body for POST, PUT and PATCH (an empty object when none)", () => {
    expect(planHttpRequest("https://x.test", { method: "POST", path: "/n/{id}" }, { id: 1, a: [1], b: null }).body).toBe('{"a":[1],"b":null}');
    expect(planHttpRequest("https://x.test", { method: "PUT", path: "/n" }, {}).body).toBe("{}");
  });

  it("refuses a missing path argument and dot segments", () => {
    expect(() => planHttpRequest("https://x.test", { method: "GET", path: "/n/{id}" }, {})).toThrow(RequestPlanError);
    for (const id of [".", "..", "%2e%2E", ""]) expect(() => planHttpRequest("https://x.test", { method: "GET", path: "/n/{id}" }, { id })).toThrow(/path parameter "id"/);
  });
});

describe("argument validation", () => {
  const schema = { type: "object", properties: { n: { type: "integer", minimum: 1 }, tags: { type: "array", items: { type: "string" } } }, required: ["n"], additionalProperties: false };

  it("names every failing field by its JSON pointer", () => {
    expect(invalidArgumentsMessage(schema, { n: 1 })).toBeNull();
    expect(invalidArgumentsMessage(schema, { n: 0, tags: [1] })).toBe("Invalid arguments: /n must be >= 1; /tags/0 must be string");
    expect(invalidArgumentsMessage(schema, { n: 1, extra: true })).toBe("Invalid arguments: must NOT have additional properties");
  });

  it("honours a declared draft-07 dialect", () => {
    const draft7 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string" } } };
    expect(invalidArgumentsMessage(draft7, { a: 1 })).toBe("Invalid arguments: /a must be string");
  });
});

describe("audit excerpts", () => {
  it("redacts values under secret-looking keys, at any depth", () => {
    expect(auditExcerpt({ password: "p", nested: [{ accessToken: "t", "x-api-key": "k", client_secret: "s" }], max_tokens: 5, query: "q" })).toEqual({
      password: "[redacted]",
      nested: [{ accessToken: "[redacted]", "x-api-key": "[redacted]", client_secret: "[redacted]" }],
      max_tokens: 5,
      query: "q",
    });
    expect(["Authorization", "api_key", "apiKey", "cookie", "privateKey"].every(isSecretKey)).toBe(true);
    expect(["tokens", "key", "name", "author"].some(isSecretKey)).toBe(false);
  });

  it("cuts anything above 16 KB of JSON to a preview that fits", () => {
    const excerpt = auditExcerpt({ text: "é".repeat(20000) }) as { truncated: boolean; preview: string };
    expect(excerpt.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(excerpt))).toBeLessThanOrEqual(AUDIT_EXCERPT_BYTES);
    expect(excerpt.preview.startsWith('{"text":"éé')).toBe(true);
  });
});

describe("host-resources era", () => {
  it("2025-era revisions serve the extension; 2026-07-28 and unknown do not", () => {
    expect(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"].every(servesHostResources)).toBe(true);
    expect([undefined, null, "2026-07-28", "2027-01-01"].some(servesHostResources)).toBe(false);
  });
});
