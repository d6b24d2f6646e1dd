import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/net/free-port";
import { assembleImage, directorySize, IMAGE_ENTRIES } from "@/scripts/lib/image-assembly";
import { postRaw } from "@/tests/helpers/mcp-clients";
import { ensureBuild } from "./support/next-app";

/**
 * Issue 28 "a slim image": no container engine here, so this lays out what the Dockerfile copies
 * into its final stage (scripts/lib/image-assembly.ts, from the same `next build` the browser
 * tests use), measures it, runs the image's migration command against an empty database, and
 * serves from that directory alone — outside the repository, with an environment that names
 * nothing of it — as the container would.
 */

const LIMIT_BYTES = 350 * 1024 * 1024;
const run = promisify(execFile);

let dir: string;
let database: { url: string; drop: () => Promise<void> };
let server: { url: string; child: ChildProcess; output: () => string } | undefined;

/** Only what the image's environment has: no NODE_PATH, no repository path, no test settings. */
function imageEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: os.tmpdir(), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn", ...extra };
}

async function emptyDatabase(sharedUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `image_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: sharedUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(sharedUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function startImageServer(): Promise<NonNullable<typeof server>> {
  const port = await freePort();
  const child = spawn(process.execPath, ["serve.mjs", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: dir,
    detached: true,
// The image has no embedded PostgreSQL and no generated secrets: a deployment gives it its database, key and instance credential, as this does.
    env: imageEnvironment({ DATABASE_URL: database.url, SECRET_KEY: "image-test-secret-key-0123456789abcdef", INSTANCE_API_KEY: "image-test-key" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 90_000; ; ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the image's server did not start:\n${output}`);
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, child, output: () => output };
}

beforeAll(async () => {
  await ensureBuild();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-image-"));
  await assembleImage(process.cwd(), dir);
  database = await emptyDatabase(process.env.DATABASE_URL!);
}, 900_000);

afterAll(async () => {
  if (server?.child.pid) {
    try {
      process.kill(-server.child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await database?.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the image's contents", () => {
  it("are under 350 MB, hold the server and migration command, and link nowhere outside themselves", () => {
    const size = directorySize(dir);
    console.log(`image contents: ${(size / 1024 / 1024).toFixed(1)} MiB`);
    expect(size).toBeLessThan(LIMIT_BYTES);
    for (const name of Object.keys(IMAGE_ENTRIES)) expect(fs.existsSync(path.join(dir, name))).toBe(true);
    // Next's own standalone server would serve /mcp through Next.js: not ours, not shipped.
    expect(fs.existsSync(path.join(dir, "server.js"))).toBe(false);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (!entry.isSymbolicLink()) continue;
      const target = fs.realpathSync(path.join(entry.parentPath, entry.name));
      expect(target.startsWith(fs.realpathSync(dir) + path.sep), `${entry.name} → ${target}`).toBe(true);
    }
  });

  it("are what the Dockerfile's final stage copies, run as the non-root user node", () => {
    const dockerfile = fs.readFileSync("Dockerfile", "utf8");
    const final = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(dockerfile).toMatch(/RUN .*node --import tsx scripts\/assemble-image\.ts \/image/);
    expect(final.match(/^COPY .*/gm)).toEqual(["COPY --from=build /image ./"]);
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^CMD \["node", "serve\.mjs"/m);
  });
});

describe("served from the assembled directory alone", () => {
  it("its migration command migrates an empty database", async () => {
// The migration command is run against the deployment's database, named as a Job names it.
    const { stdout } = await run(process.execPath, ["db-migrate.mjs", "deploy"], { cwd: dir, env: imageEnvironment({ DATABASE_URL: database.url }) });
    expect(stdout).toMatch(/\d+ migration\(s\) applied\./);
  }, 120_000);

  it("answers /api/health, /api/ready, /mcp and a page with its scripts", async () => {
    server = await startImageServer();
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const ready = await fetch(`${server.url}/api/ready`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: "ready", checks: { database: "up", redis: "not configured" } } });

    // /mcp: the shared endpoint asks for credentials; the demo endpoint serves an MCP session.
    const shared = await postRaw(`${server.url}/mcp`, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(shared.status).toBe(401);
    expect(shared.headers.get("www-authenticate")).toContain("resource_metadata=");
    const init = await postRaw(`${server.url}/mcp/demo`, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "image-test", version: "1" } },
    });
    expect(init.status).toBe(200);
    expect(init.body.result.serverInfo.name).toBeTruthy();

    // A page, and the browser assets it loads (standalone output leaves .next/static out).
    const page = await fetch(`${server.url}/signin`);
    expect(page.status).toBe(200);
    const script = (await page.text()).match(/\/_next\/static\/[^"]+\.js/)?.[0];
    expect(script).toBeTruthy();
    expect((await fetch(`${server.url}${script}`)).status).toBe(200);
  }, 120_000);
});
