import type { CallAnswer, PipelineContext, Step } from "@/lib/connectors/pipeline/call-context";

/**
 * Runs one call through its steps, then its terminal step (the request to the upstream).
 * Steps run in order around the terminal one, as the MCP SDK's middleware does; each kind of
 * request composes its own list beside its entry point (call-tool.ts, get-prompt.ts,
 * read-resource.ts; lib/host-resources/guard.ts for the host-resource requests).
 *
 * The terminal step's failure is an answer like any other (outcome `error`, `thrown` kept), so
 * the audit's ending, usage and metrics see every call that reached the upstream; it is thrown
 * to the caller only once every step has seen it. A step that throws before `next()` is a
 * refusal: nothing was sent.
 */

export type Terminal<C, R> = (ctx: C) => Promise<Omit<CallAnswer<R>, "durationMs">>;

export async function runCall<C extends PipelineContext, R>(ctx: C, steps: readonly Step<C>[], terminal: Terminal<C, R>): Promise<R> {
  const answer = await dispatch(ctx, steps, 0, terminal);
  if (answer.thrown !== undefined) throw answer.thrown;
  return answer.result;
}

function dispatch<C, R>(ctx: C, steps: readonly Step<C>[], index: number, terminal: Terminal<C, R>): Promise<CallAnswer<R>> {
  const step = steps[index];
  if (!step) return timed(ctx, terminal);
  return step<R>(ctx, () => dispatch(ctx, steps, index + 1, terminal));
}

async function timed<C, R>(ctx: C, terminal: Terminal<C, R>): Promise<CallAnswer<R>> {
  const started = performance.now();
  let answer: Omit<CallAnswer<R>, "durationMs">;
  try {
    answer = await terminal(ctx);
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code;
    const message = e instanceof Error ? e.message : String(e);
    answer = { result: undefined as R, outcome: "error", thrown: e, errorMessage: message, ...(typeof code === "number" ? { errorCode: code } : {}) };
  }
  return { ...answer, durationMs: Math.round(performance.now() - started) };
}
