import type { AuthProvider, Client } from "@modelcontextprotocol/client";
import {
  closeUpstream,
  createUpstreamClient,
  createUpstreamTransport,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type UpstreamLane,
  type UpstreamTransport,
} from "@/lib/connectors/open-upstream";
import { connectionFingerprint, type UpstreamSettings } from "@/lib/connectors/runtime/connector-secrets";
import type { UpstreamOwner } from "@/lib/connectors/runtime/types";
import { outsideFlights } from "@/lib/connectors/runtime/call-flight";
import { witnessTokens } from "@/lib/connectors/runtime/token-witness";
import { relayToFlights } from "@/lib/connectors/runtime/relay-to-flights";
import { attachHostResources, type HostResourcesHandlers } from "@/lib/host-resources/serve-on-connection";
import { setting } from "@/lib/config/settings";
import { watchListChanges } from "@/lib/connectors/runtime/list-changed-handlers";
import { holdsSubscriptions } from "@/lib/connectors/runtime/subscription-listeners";

/**
 * Outbound MCP connections to upstream servers, one per (workspace, user, connector): a
 * connection carries its owner's host-resources scope, so it is never shared with another
 * user. Reused while idle for less than UPSTREAM_IDLE_SEC (default 300), replaced when the
 * connector's url, headers, protocol era or transport change, dropped when it dies.
 */

export interface UpstreamTarget {
  url: string;
  /** The org config version of the snapshot the call came from (cheap change detection). */
  configVersion: number;
  /** The connector's decrypted headers, era and transport, read only when the config version moved. */
  loadSettings(): Promise<UpstreamSettings>;
  /** `legacy`: the caller is on a 2025-era wire (open-upstream.ts `UpstreamLane`); default `auto`. */
  lane?: UpstreamLane;
  /** An OAuth connector's token for this owner (lib/connectors/upstream-auth/credential.ts). */
  authProvider?: AuthProvider;
  /** Which credential `authProvider` stands for (a connection id): another one means another connection. */
  authKey?: string;
}

export interface UpstreamConnection {
  readonly key: string;
  readonly client: Client;
  readonly transport: UpstreamTransport;
  /** The negotiated revision ("2025-11-25", "2026-07-28", …). */
  readonly protocolVersion: string | null;
  /** The plaintext headers and the tokens sent (token-witness.ts), for scrubbing upstream texts; never logged. */
  readonly headers: Record<string, string>;
  readonly fingerprint: string;
  /** Whether a 2025-era caller needs a connection of its own (an `auto` connector on Streamable HTTP). */
  readonly laneMatters: boolean;
  /** The OAuth credential it was opened with (a connection id), if any. */
  readonly authKey?: string;
  configVersion: number;
  /** The log level last forwarded to a 2025-era upstream (logging/setLevel). */
  logLevel?: string;
  inFlight: number;
  /** Requests started on the connection so far. */
  used: number;
  retired: boolean;
  idleTimer?: NodeJS.Timeout;
  closing?: Promise<void>;
  /** Closes the connection's list_changed listen stream (2026-07-28), if any. */
  stopListening?: () => void;
}

/** A pool slot: the connection once open, the promise of it while it opens. */
interface Slot {
  promise: Promise<UpstreamConnection>;
  connection?: UpstreamConnection;
}

export interface UpstreamPoolOptions {
  idleMs?: number;
  connectTimeoutMs?: number;
  /** Serves ai.nimblebrain/resources/* on 2025-era connections; null claims and serves nothing. */
  hostResources: HostResourcesHandlers | null;
  /** Called when an owner's upstream says its tools, prompts or resources changed (list_changed). */
  onListChanged?: (owner: UpstreamOwner) => void;
}

interface ConnectionSpec extends UpstreamSettings {
  url: string;
  authProvider?: AuthProvider;
  authKey?: string;
  lane: UpstreamLane;
  fingerprint: string;
  configVersion: number;
}

/** The pool key of an owner; the instance credential (userId null) has its own slot. */
export function upstreamPoolKey(owner: UpstreamOwner): string {
  return JSON.stringify([owner.orgId, owner.workspaceId, owner.userId, owner.connectorId]);
}

/** How long an upstream's refusal of `initialize` sends 2025-era callers to its `auto` connection. */
const INITIALIZE_REFUSED_MS = 10 * 60_000;

export function idleMsFromEnv(): number {
  return setting("UPSTREAM_IDLE_SEC") * 1000;
}

export class UpstreamPool {
  private readonly slots = new Map<string, Slot>();
  /** Upstream urls that refused `initialize` on the legacy lane, until when (ms since epoch). */
  private readonly initializeRefused = new Map<string, number>();
  /** Upstream urls whose last `auto` connection found 2026-07-28 (a 2025-era caller needs its own). */
  private readonly lanesDiffer = new Map<string, boolean>();
  private readonly idleMs: number;
  private readonly connectTimeoutMs: number;

  constructor(private readonly options: UpstreamPoolOptions) {
    this.idleMs = options.idleMs ?? idleMsFromEnv();
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  }

  /**
   * Runs `work` on the owner's connection (built on first use). Errors of `work` propagate;
   * the caller decides whether they mean the connection is dead (then it calls `drop`).
   */
  async use<T>(owner: UpstreamOwner, target: UpstreamTarget, work: (connection: UpstreamConnection) => Promise<T>): Promise<T> {
    const connection = await this.acquireLane(owner, target);
    connection.inFlight++;
    connection.used++;
    clearTimeout(connection.idleTimer);
    try {
      return await work(connection);
    } finally {
      connection.inFlight--;
      this.release(connection);
    }
  }

  /** Forgets a connection (dead or replaced); it is closed once no call uses it. */
  drop(connection: UpstreamConnection): void {
    connection.retired = true;
    if (this.slots.get(connection.key)?.connection === connection) this.slots.delete(connection.key);
    if (connection.inFlight === 0) void closeQuietly(connection);
  }

  /** Whether the owner has a live pooled connection (tests, diagnostics). */
  async connectionFor(owner: UpstreamOwner): Promise<UpstreamConnection | null> {
    const slot = this.slots.get(upstreamPoolKey(owner));
    const connection = slot ? await slot.promise.catch(() => null) : null;
    return connection && !connection.retired ? connection : null;
  }

  /** Closes every connection (shutdown, tests). */
  async closeAll(): Promise<void> {
    const pending = [...this.slots.values()].map((slot) => slot.promise);
    this.slots.clear();
    const settled = await Promise.allSettled(pending);
    await Promise.all(settled.map((s) => (s.status === "fulfilled" ? closeQuietly(s.value) : undefined)));
  }

  /**
   * A 2025-era caller of an `auto` connector whose upstream speaks 2026-07-28 gets a connection
   * of its own, by `initialize`; where the upstream refuses that (a 2026-07-28-only server) it
   * shares the `auto` one, whose input requests the flight translates, and the refusal is
   * remembered a while. Whether the lanes differ is learnt from the `auto` connection.
   */
  private async acquireLane(owner: UpstreamOwner, target: UpstreamTarget): Promise<UpstreamConnection> {
    const base = upstreamPoolKey(owner);
    if (target.lane !== "legacy") return this.acquire(base, owner, target, "auto");
    const refused = (this.initializeRefused.get(target.url) ?? 0) > Date.now();
    if (refused || this.lanesDiffer.get(target.url) !== true) {
      const shared = await this.acquire(base, owner, target, "auto");
      if (refused || !shared.laneMatters) return shared;
      // Opened (or looked at) only to learn the lanes differ: its idle timer closes it if unused.
      this.release(shared);
    }
    try {
      return await this.acquire(`${base}|legacy`, owner, target, "legacy");
    } catch (e) {
      const modern = await this.acquire(base, owner, target, "auto").catch(() => null);
      if (!modern) throw e;
      this.initializeRefused.set(target.url, Date.now() + INITIALIZE_REFUSED_MS);
      return modern;
    }
  }

  private async acquire(key: string, owner: UpstreamOwner, target: UpstreamTarget, lane: UpstreamLane): Promise<UpstreamConnection> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const slot = this.slots.get(key);
      const current = slot ? await slot.promise.catch(() => null) : null;
      if (current && !current.retired && current.configVersion === target.configVersion && current.authKey === target.authKey) return current;
      const settings = await target.loadSettings();
      const fingerprint = connectionFingerprint(target.url, settings) + (target.authKey ? `|${target.authKey}` : "");
      if (current && !current.retired && current.fingerprint === fingerprint) {
        current.configVersion = Math.max(current.configVersion, target.configVersion);
        return current;
      }
      if (current && !current.retired) this.drop(current); // the connector's url, headers, era or transport changed
      const now = this.slots.get(key);
      if (now && now !== slot) continue; // another call opened one meanwhile: look again
      if (now) this.slots.delete(key);
      return this.open(key, owner, { url: target.url, lane, ...settings, authProvider: target.authProvider, authKey: target.authKey, fingerprint, configVersion: target.configVersion });
    }
    throw new Error("the upstream connection kept changing while it was being opened");
  }

  /** Puts a connecting slot in place at once, so concurrent calls of the owner share it. */
  private open(key: string, owner: UpstreamOwner, spec: ConnectionSpec): Promise<UpstreamConnection> {
    const slot: Slot = { promise: this.connect(key, owner, spec) };
    this.slots.set(key, slot);
    slot.promise.then(
      (connection) => {
        slot.connection = connection;
        if (connection.retired && this.slots.get(key) === slot) this.slots.delete(key);
      },
      () => this.slots.get(key) === slot && this.slots.delete(key),
    );
    return slot.promise;
  }

  private async connect(
    key: string,
    owner: UpstreamOwner,
    spec: ConnectionSpec,
  ): Promise<UpstreamConnection> {
    const client = createUpstreamClient(this.connectTimeoutMs, spec, spec.lane);
    // What the connection's failures and relayed texts are scrubbed of: its headers and every token its transport sent.
    const scrubbed = { ...spec.headers };
    const transport = createUpstreamTransport(spec.authProvider ? { ...spec, authProvider: witnessTokens(spec.authProvider, scrubbed) } : spec);
    const hostResources = attachHostResources(client, transport, owner, this.options.hostResources);
    relayToFlights(client);
    try {
      // Outside the opening call's flight: the connection's GET stream belongs to no call.
      await outsideFlights(() => withDeadline(client.connect(transport, { timeout: this.connectTimeoutMs }), this.connectTimeoutMs));
    } catch (e) {
      await closeUpstream(client, transport);
      throw e;
    }
    const protocolVersion = client.getNegotiatedProtocolVersion() ?? null;
    hostResources.connected(protocolVersion);
    // Only an `auto` connection that found 2026-07-28 differs from what a 2025-era caller needs.
    const laneMatters = spec.lane === "auto" && spec.protocolEra === "auto" && spec.transport === "streamable-http" && (protocolVersion ?? "") >= "2026-07-28";
    if (spec.lane === "auto") this.lanesDiffer.set(spec.url, laneMatters);
    const connection: UpstreamConnection = { key, client, transport, protocolVersion, headers: scrubbed, fingerprint: spec.fingerprint, laneMatters, authKey: spec.authKey, configVersion: spec.configVersion, inFlight: 0, used: 0, retired: false };
    const onListChanged = this.options.onListChanged;
    // After connect, never awaited: a listen stream costs its notifications, never a call.
    if (onListChanged) connection.stopListening = outsideFlights(() => watchListChanges(client, () => onListChanged(owner), { ackTimeoutMs: this.connectTimeoutMs, connection: key, headers: scrubbed, sentMeanwhile: () => connection.used > 0 }));
    const previousOnClose = client.onclose;
    client.onclose = () => {
      previousOnClose?.();
      this.drop(connection);
    };
    return connection;
  }

  private release(connection: UpstreamConnection): void {
    if (connection.inFlight > 0) return;
    if (connection.retired) {
      void closeQuietly(connection);
      return;
    }
    clearTimeout(connection.idleTimer);
    connection.idleTimer = setTimeout(() => {
      if (connection.inFlight > 0) return;
      // A live resource subscription is work in progress: dropping it would silence its listeners.
      if (holdsSubscriptions(connection.client)) this.release(connection);
      else this.drop(connection);
    }, this.idleMs);
    connection.idleTimer.unref();
  }
}

/** Rejects when `work` has not settled within `ms` (a silent upstream must not hang a call). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function closeQuietly(connection: UpstreamConnection): Promise<void> {
  clearTimeout(connection.idleTimer);
  connection.stopListening?.();
  connection.closing ??= closeUpstream(connection.client, connection.transport);
  return connection.closing;
}
