import { errorText, logger } from "@/lib/log";
import { processState } from "@/lib/process-state";

/**
 * Work to do when this instance is asked to stop. `next start` handles SIGTERM/SIGINT itself:
 * it stops accepting connections, waits for in-flight requests to finish, then exits. What it
 * cannot finish on its own are the long-lived answers — MCP sessions' SSE streams never end by
 * themselves and would hold the server open until the supervisor's kill — so the modules that
 * own them register a hook here that closes them when the signal arrives.
 */

type Hook = () => Promise<void> | void;

const HOOK_TIMEOUT_MS = 5_000;
const SIGNALS = ["SIGTERM", "SIGINT"] as const;

interface Registry {
  hooks: Map<string, Hook>;
  listening: boolean;
  running?: Promise<void>;
}

const globalForShutdown = processState<{ switchboardShutdown?: Registry }>();

function registry(): Registry {
  return (globalForShutdown.switchboardShutdown ??= { hooks: new Map(), listening: false });
}

/** Registers (or replaces) the hook called `name`; it runs once, on the first SIGTERM or SIGINT. */
export function onShutdown(name: string, hook: Hook): void {
  const r = registry();
  r.hooks.set(name, hook);
  if (r.listening) return;
  r.listening = true;
  for (const signal of SIGNALS) process.on(signal, () => void handleSignal(signal));
}

async function handleSignal(signal: (typeof SIGNALS)[number]): Promise<void> {
  await runShutdownHooks();
  // Our listener must not swallow the signal where nobody else handles it (outside `next start`).
  if (process.listenerCount(signal) === 1) process.exit(signal === "SIGTERM" ? 143 : 130);
}

/** Runs every hook once, concurrently, each for at most 5 s (tests call it directly). */
export function runShutdownHooks(): Promise<void> {
  const r = registry();
  r.running ??= Promise.all(
    [...r.hooks].map(async ([name, hook]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          logger.warn({ hook: name }, "shutdown hook did not finish in time");
          resolve();
        }, HOOK_TIMEOUT_MS);
      });
      try {
        await Promise.race([Promise.resolve().then(hook), timeout]);
      } catch (error) {
        logger.warn({ hook: name, err: errorText(error) }, "shutdown hook failed");
      } finally {
        clearTimeout(timer);
      }
    }),
  ).then(() => undefined);
  return r.running;
}
