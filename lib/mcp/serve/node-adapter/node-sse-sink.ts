import type http from "node:http";
import { processState } from "@/lib/process-state";

/**
 * A 2025-era stateless answer's event stream written straight into the node:http response when
 * the request came through the instance's own server (lib/mcp/serve/node-adapter/serve-node.ts), instead
 * of through two web streams: the SDK transport's ReadableStream, read back out by the
 * node ⇄ fetch adapter. In the tools/call profile of bench:mcp those adapters were the largest
 * part of a call's CPU after the SDK itself (bench/README.md).
 *
 * The transport writes its SSE frames here (lib/mcp/serve/protocol/legacy-transport.ts); frames made
 * before the response's head is written wait in order, and the stream ends when the transport
 * has answered every request of the POST or is closed. The SDK's keep-alive comment, which it
 * writes into its own stream, is written here instead while the answer is open.
 */

/** The SDK's default interval for the keep-alive comment of an open SSE answer, and the comment. */
export const KEEP_ALIVE_MS = 15_000;
export const KEEP_ALIVE_COMMENT = Buffer.from(": keepalive\n\n");

/**
 * How long an answer not ready when its head could be written waits before the head is sent
 * alone. Most calls answer within it, and their head, answer and end then leave in one write
 * (node:http coalesces what is written in one tick) instead of two: the head's own write and
 * TCP segment were a visible part of a tools/call's CPU (bench/README.md). A second covers the
 * calls of a typical API (tens to hundreds of ms); a longer call's client sees its stream
 * open this much later, and nothing else changes: a progress or log message written before
 * then goes out at once, with the head.
 */
const OPEN_AFTER_MS = 1_000;

export class NodeSseSink {
  private pending: Buffer[] = [];
  private res: http.ServerResponse | null = null;
  private ended = false;
  private keepAlive?: NodeJS.Timeout;
  private opening?: NodeJS.Timeout;
  /** Something was written into the response: its head went out with it. */
  private wrote = false;
  private onEnd?: () => void;
  /** The ids of the POST's requests not answered yet: the stream ends with the last answer. */
  private unanswered = new Set<unknown>();
  /** Set by 2025-era stateless serving once its answer is the event stream written here. */
  adopted = false;

  /** The requests of `message` (one JSON-RPC message or a batch) this stream answers. */
  expect(message: unknown): this {
    for (const m of Array.isArray(message) ? message : [message]) {
      const r = m as { method?: unknown; id?: unknown } | null;
      if (r && typeof r === "object" && typeof r.method === "string" && (typeof r.id === "string" || typeof r.id === "number")) this.unanswered.add(r.id);
    }
    return this;
  }

  /** Whether the message given to `expect` held a request (one answer to stream). */
  get expecting(): boolean {
    return this.unanswered.size > 0;
  }

  /** The transport sent the answer to request `id`. */
  answered(id: unknown): void {
    if (this.unanswered.delete(id) && this.unanswered.size === 0) this.end();
  }

  write(frame: Buffer): void {
    if (this.ended) return;
    if (!this.res) return void this.pending.push(frame);
    this.res.write(frame);
    this.wrote = true;
  }

  /** Ends the stream (once): the answer is complete, or the exchange was torn down. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.opening);
    clearInterval(this.keepAlive);
    this.res?.end();
    this.onEnd?.();
  }

  /** `done` runs once the stream has ended (at once if it has). */
  whenEnded(done: () => void): void {
    if (this.ended) done();
    else this.onEnd = done;
  }

  /** Starts writing into `res`, whose head has been written: what waited first, in one write when complete. */
  attach(res: http.ServerResponse): void {
    this.res = res;
    const waiting = this.pending;
    this.pending = [];
    if (this.ended) return void res.end(waiting.length > 0 ? Buffer.concat(waiting) : undefined);
    if (waiting.length > 0) this.write(Buffer.concat(waiting));
    // Not answered yet (a call still running): the client sees its stream open shortly, and
    // from then on it is kept alive. A call answered before that needs neither timer.
    this.opening = setTimeout(() => {
      if (!this.wrote) res.flushHeaders();
      this.keepAlive = setInterval(() => this.write(KEEP_ALIVE_COMMENT), KEEP_ALIVE_MS);
      this.keepAlive.unref();
    }, OPEN_AFTER_MS);
    res.once("close", () => {
      clearTimeout(this.opening);
      clearInterval(this.keepAlive);
    });
  }
}

const globalForSinks = processState<{ switchboardSseSinks?: { sinks: WeakMap<Request, NodeSseSink | null>; made: number } }>();
const state = (globalForSinks.switchboardSseSinks ??= { sinks: new WeakMap(), made: 0 });

/**
 * Marks `request` (made by serve-node from a node:http request) as one whose answer stream may be
 * written straight to its socket. No sink is made yet: most requests (a notification, an
 * answer, a GET, a 2026-07-28 request, a refusal) answer without one.
 */
export function offerSseSink(request: Request): void {
  state.sinks.set(request, null);
}

/**
 * The sink for `request`'s answer to the requests in `message`, made now; undefined when
 * `request` did not come through the instance's own server or `message` holds no request
 * (nothing to stream: the transport answers 202).
 */
export function sseSinkOf(request: Request, message: unknown): NodeSseSink | undefined {
  if (state.sinks.get(request) !== null) return undefined;
  const sink = new NodeSseSink().expect(message);
  if (!sink.expecting) return undefined;
  state.made++;
  state.sinks.set(request, sink);
  return sink;
}

/** The sink made for `request`, if its answer took one. */
export function madeSseSink(request: Request): NodeSseSink | undefined {
  return state.sinks.get(request) ?? undefined;
}

/** How many sinks this process has made (tests: only answers that stream take one). */
export function sseSinksMade(): number {
  return state.made;
}
