/**
 * npx tsx bench/graceful-shutdown.ts: checks that stopping the production app is graceful.
 * Starts it as `npm start` does, begins a slow request (its JSON body trickles in), sends
 * SIGTERM to the supervisor, then checks, in order: a new connection is refused at once (Next
 * stopped accepting), the slow request still completes with its normal answer (in-flight
 * requests finish), and only after Next has exited is PostgreSQL stopped. Exit code 0 when all
 * hold. Takes a build the first time (scripts/start.ts builds when stale).
 */
import http from "node:http";
import { startProductionApp } from "./app";

const log = (line: string) => console.error(`[shutdown-check] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST /api/v1/orgs whose body arrives in two parts; resolves with the status once answered. */
function slowCreateOrg(url: string, key: string): { finish: () => void; answer: Promise<number> } {
  const body = JSON.stringify({ name: "Slow request", slug: `slow-${Date.now()}` });
  const target = new URL("/api/v1/orgs", url);
  let request!: http.ClientRequest;
  const answer = new Promise<number>((resolve, reject) => {
    request = http.request(target, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      agent: false,
    }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
  });
  request.write(body.slice(0, 10));
  answer.catch(() => undefined); // awaited later; a reset must not crash the check meanwhile
  return { finish: () => void request.end(body.slice(10)), answer };
}

function connects(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = http.get(new URL("/api/health", url), { agent: false }, (response) => {
      response.resume();
      resolve(true);
    });
    probe.on("error", () => resolve(false));
  });
}

async function main(): Promise<number> {
  if (process.argv.includes("--help")) {
    console.log("Usage: npx tsx bench/graceful-shutdown.ts   (see the comment at the top of the file)");
    return 0;
  }
  const app = await startProductionApp(log);
  const failures: string[] = [];
  const exited = new Promise<number | null>((resolve) => app.supervisor.once("exit", (code) => resolve(code)));
  // Warm up: Next loads a route's code on its first request, which can hold the event loop
  // (and with it the signal handler) for a while on a busy machine.
  const warm = slowCreateOrg(app.url, app.key);
  warm.finish();
  await warm.answer;
  const slow = slowCreateOrg(app.url, app.key);
  await sleep(500);
  log("SIGTERM to the supervisor while a request is in flight");
  app.supervisor.kill("SIGTERM");
  let refused = false;
  for (let waited = 0; waited < 5_000 && !refused; waited += 200) {
    await sleep(200);
    refused = !(await connects(app.url));
  }
  if (!refused) failures.push("new connections were still accepted 5 s after SIGTERM");
  else log("new connections are refused");
  slow.finish();
  const status = await slow.answer.catch((error: Error) => `error: ${error.message}`);
  if (status !== 201) failures.push(`the in-flight request got ${status} instead of 201`);
  else log("the in-flight request completed: 201");
  const code = await exited;
  log(`supervisor exited with code ${code}`);
  const output = app.output();
  if (!/PostgreSQL stopped/.test(output)) failures.push("the supervisor did not report stopping PostgreSQL");
  else log("PostgreSQL stopped after Next.js had exited");
  await app.stop();
  for (const failure of failures) log(`FAIL: ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (error: Error) => {
  log(`failed: ${error.message}`);
  process.exit(1);
});
