import { describe, expect, it } from "vitest";
import { pruneIntervalPhrase } from "@/lib/audit/prune-audit-events";

/** The settings page says when events past the retention go: the prune interval in words. */
describe("pruneIntervalPhrase", () => {
  it("names the interval in the largest whole unit", () => {
    expect(pruneIntervalPhrase(3600)).toBe("every hour");
    expect(pruneIntervalPhrase(7200)).toBe("every 2 hours");
    expect(pruneIntervalPhrase(900)).toBe("every 15 minutes");
    expect(pruneIntervalPhrase(86400)).toBe("every day");
    expect(pruneIntervalPhrase(90)).toBe("every 90 seconds");
  });
});
