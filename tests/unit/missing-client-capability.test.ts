import { describe, expect, it } from "vitest";
import { missingCapability } from "@/lib/connectors/runtime/call-flight";

/**
 * "A client that did not declare the capability gets -32021": which capability an upstream's
 * request for client input needs from the calling client.
 */
describe("missingCapability", () => {
  const sample = { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } };
  it("sampling needs `sampling`, and `sampling.tools` when the request offers tools", () => {
    expect(missingCapability(sample, {})).toEqual({ sampling: {} });
    expect(missingCapability(sample, { sampling: {} })).toBeNull();
    expect(missingCapability({ ...sample, params: { ...sample.params, tools: [] } }, { sampling: {} })).toEqual({ sampling: { tools: {} } });
    expect(missingCapability({ ...sample, params: { ...sample.params, tools: [] } }, { sampling: { tools: {} } })).toBeNull();
  });

  it("elicitation: an empty capability means form mode; url mode needs `elicitation.url`", () => {
    const form = { method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } } };
    const url = { method: "elicitation/create", params: { mode: "url", message: "?", url: "https://example.com", elicitationId: "1" } };
    expect(missingCapability(form, {})).toEqual({ elicitation: {} });
    expect(missingCapability(form, { elicitation: {} })).toBeNull();
    expect(missingCapability(url, { elicitation: {} })).toEqual({ elicitation: { url: {} } });
    expect(missingCapability(url, { elicitation: { url: {} } })).toBeNull();
    expect(missingCapability(form, { elicitation: { url: {} } })).toEqual({ elicitation: { form: {} } });
  });

  it("roots/list needs `roots`; other methods need nothing from this check", () => {
    expect(missingCapability({ method: "roots/list" }, {})).toEqual({ roots: {} });
    expect(missingCapability({ method: "roots/list" }, { roots: {} })).toBeNull();
    expect(missingCapability({ method: "ping" }, {})).toBeNull();
  });
});
