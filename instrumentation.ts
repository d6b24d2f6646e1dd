/**
 * Runs once when a Next.js server starts (also when it is started without scripts/start.ts, as
 * the Dockerfile does): a setting that is not valid stops it with a sentence naming the variable,
 * instead of every request failing later.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { settingProblems } = await import("@/lib/config/settings");
  const problems = settingProblems();
  if (problems.length === 0) return;
  for (const problem of problems) console.error(`[switchboard] ${problem}`);
  console.error("[switchboard] Not started: fix the setting(s) above (see the Configuration table in README.md).");
  process.exit(2);
}
