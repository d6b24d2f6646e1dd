import { describe, expect, it } from "vitest";
import { listenHolds } from "@/lib/mcp/serve/connection-state/hold-listen-subscriptions";
import type { McpSurface } from "@/lib/mcp/surface/surface-types";
import type { SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * Issue 23: the recheck of open resource subscriptions after a configuration change failed open
 * — when reading the caller's access failed, every subscription was kept and its updates kept
 * flowing. It now fails closed: the subscription is dropped (the upstream unsubscribed, no more
 * updates), as when access is lost. The surface here is the part of it the holds use; the
 * access read is made to fail, which a real database does not do on demand.
 */

const connector = { id: "cn_1" } as SnapshotConnector;

function surfaceWith(reaches: () => Promise<boolean>) {
  const state = { unsubscribed: 0, onUpdated: null as ((uri: string) => void) | null };
  const surface = {
    resources: () => ({ upstreamOf: (uri: string) => (uri.startsWith("up://") ? { connector, uri } : null) }),
    upstreamResources: {
      subscribe: true,
      subscribeTo: async (_c: SnapshotConnector, _uri: string, onUpdated: (uri: string) => void) => {
        state.onUpdated = onUpdated;
        return async () => void state.unsubscribed++;
      },
      reaches,
    },
  } as unknown as McpSurface;
  return { surface, state };
}

async function heldThenRechecked(reaches: () => Promise<boolean>) {
  const published: string[] = [];
  const holds = listenHolds((uri) => published.push(uri));
  const { surface, state } = surfaceWith(reaches);
  holds.hold(surface, ["up://doc"]);
  await new Promise((resolve) => setImmediate(resolve));
  state.onUpdated!("up://doc");
  await holds.recheck(surface);
  await new Promise((resolve) => setImmediate(resolve));
  state.onUpdated!("up://doc");
  return { published, unsubscribed: state.unsubscribed, holding: holds.holding() };
}

describe("subscription recheck after a configuration change", () => {
  it("keeps a subscription whose connector the caller still reaches", async () => {
    expect(await heldThenRechecked(async () => true)).toEqual({ published: ["up://doc", "up://doc"], unsubscribed: 0, holding: true });
  });

  it("drops one the caller lost", async () => {
    expect(await heldThenRechecked(async () => false)).toEqual({ published: ["up://doc"], unsubscribed: 1, holding: false });
  });

  it("fails closed: when reading access fails, the subscription is dropped and its updates stop", async () => {
    const failing = () => Promise.reject(new Error("database unreachable"));
    expect(await heldThenRechecked(failing)).toEqual({ published: ["up://doc"], unsubscribed: 1, holding: false });
  });
});
