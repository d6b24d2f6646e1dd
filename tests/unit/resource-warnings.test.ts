import { describe, expect, it } from "vitest";
import { duplicateUriOf, resourceWarnings } from "@/components/connectors/resource-warnings";

describe("stored resource warnings in the dialog", () => {
  it("say nothing about the URI before one is typed", () => {
    const warnings = resourceWarnings({ uri: "", mimeType: "text/markdown", fetchConfig: { text: "hi" } }, [{ uri: "" }]);
    expect(warnings).toEqual([]);
  });

  it("find a URI that duplicates another row's, also once normalized, and none for a fresh one", () => {
    const siblings = [{ uri: "crm://schema" }, { uri: "docs://Guide" }];
    expect(duplicateUriOf("crm://schema", [...siblings, { uri: "crm://schema" }])).toBe("crm://schema");
    expect(duplicateUriOf("CRM://schema", [...siblings, { uri: "CRM://schema" }])).toBe("crm://schema");
    expect(duplicateUriOf("crm://other", [...siblings, { uri: "crm://other" }])).toBeNull();
    expect(resourceWarnings({ uri: "crm://schema", mimeType: null, fetchConfig: { text: "x" } }, [...siblings, { uri: "crm://schema" }])[0].text).toContain(
      "neither is served",
    );
  });
});
