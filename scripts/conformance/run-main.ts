/**
 * The frame of a conformance runner: runs `main`, then every cleanup it registered (newest
 * first, each failure logged, none skipped), and exits with `main`'s code — also on Ctrl-C and
 * SIGTERM, so no app, database or suite process outlives the run.
 */
export function runMain(main: () => Promise<number>, cleanups: Array<() => Promise<void>>, log: (message: string) => void): void {
  const shutdown = async (code: number): Promise<never> => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((e: Error) => log(`cleanup failed: ${e.message}`));
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(130));
  process.on("SIGTERM", () => void shutdown(143));
  main().then(shutdown, (e: unknown) => {
    console.error(e);
    void shutdown(1);
  });
}
