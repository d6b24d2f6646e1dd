import { describe, expect, it } from "vitest";
import { HostResourcesError } from "@/lib/host-resources/errors";
import { parseListParams } from "@/lib/host-resources/params";

/**
 * `ai.nimblebrain/resources/list` filters come from an upstream server. Filters no file could
 * match (files carry at most 50 tags of at most 100 characters) used to go whole into the
 * query and the audit record; they are now invalid params (-32602 { receivedType }).
 */

const list = (filter: Record<string, unknown>) => () => parseListParams({ _meta: { filter } });

function expectInvalid(run: () => unknown, receivedType: string) {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(HostResourcesError);
    expect((e as HostResourcesError).code).toBe(-32602);
    expect((e as HostResourcesError).data).toEqual({ receivedType });
    return;
  }
  throw new Error("expected -32602");
}

describe("resources/list filter bounds", () => {
  it("accepts up to 50 tags of up to 100 characters and a MIME type of up to 255", () => {
    const tags = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, "x"));
    expect(parseListParams({ _meta: { filter: { tags, mimeType: `text/${"x".repeat(250)}` } } })).toEqual({ tags, mimeType: `text/${"x".repeat(250)}` });
  });

  it("refuses more tags, longer tags and longer MIME types", () => {
    expectInvalid(list({ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), "array");
    expectInvalid(list({ tags: ["ok", "y".repeat(101)] }), "string");
    expectInvalid(list({ tags: Array.from({ length: 100_000 }, () => "contracts") }), "array");
    expectInvalid(list({ mimeType: "x".repeat(256) }), "string");
  });
});
