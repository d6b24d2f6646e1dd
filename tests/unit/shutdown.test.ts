import { describe, expect, it } from "vitest";
import { onShutdown, runShutdownHooks } from "@/lib/ops/shutdown";

describe("graceful shutdown hooks (close sessions and connections)", () => {
  it("runs every registered hook once, even when one of them fails", async () => {
    const ran: string[] = [];
    onShutdown("sessions", async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ran.push("sessions");
    });
    onShutdown("broken", () => {
      throw new Error("boom");
    });
    onShutdown("connections", () => void ran.push("connections"));
    await runShutdownHooks();
    await runShutdownHooks(); // a second signal does not run them again
    expect(ran.sort()).toEqual(["connections", "sessions"]);
  });
});
