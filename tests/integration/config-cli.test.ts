import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { runConfigCli } from "@/scripts/lib/config-cli";
import { db } from "@/lib/db/client";
import { decryptJson } from "@/lib/crypto/secret-box";

/** `switchboard config export|plan|apply` against the route handlers over real HTTP. */

let app: RouteServer;
let dir: string;
beforeAll(async () => {
  app = await startRouteServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-config-cli-"));
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(token: string, ...argv: string[]) {
  return cliWith({ token }, ...argv);
}

/** The CLI with standard input (null: a terminal) and more environment variables. */
async function cliWith(o: { token: string; stdin?: string | null; env?: Record<string, string> }, ...argv: string[]) {
  let out = "";
  let err = "";
  const env = { SWITCHBOARD_URL: app.origin, SWITCHBOARD_TOKEN: o.token, ...o.env };
  const code = await runConfigCli(argv, { env, out: (t) => (out += t), err: (t) => (err += t), readStdin: async () => o.stdin ?? null });
  return { code, out, err };
}

describe("switchboard config", () => {
  it("exports, plans (exit 2 on drift, the plan as a diff) and applies an organization's file", async () => {
    const t = await createTenant();
    const res = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "CRM",
      config: { baseUrl: "https://crm.example.com" },
      tools: [{ name: "list_customers", request: { method: "GET", path: "/customers" } }],
    });
    expect(res.status, res.text).toBe(201);
    const file = path.join(dir, `${t.org.slug}.yaml`);

    const exported = await cli(t.owner.token, "config", "export", "--org", t.org.slug, "-f", file);
    expect(exported, exported.err).toMatchObject({ code: 0 });
    expect(fs.readFileSync(file, "utf8")).toContain("slug: crm");

    const clean = await cli(t.owner.token, "config", "plan", "--org", t.org.slug, "-f", file);
    expect(clean).toMatchObject({ code: 0, out: expect.stringContaining("No changes") });

    const doc = parse(fs.readFileSync(file, "utf8"));
    doc.connectors[0].tools[0].description = "Every customer";
    doc.roles = [{ name: "support", tools: [{ connector: "crm", tool: "list_customers" }] }];
    fs.writeFileSync(file, stringify(doc));
    const drift = await cli(t.owner.token, "config", "plan", "--org", t.org.slug, "-f", file);
    expect(drift.code, drift.err).toBe(2);
    expect(drift.out).toContain('~ connector crm\n    tools.list_customers.description: "" → "Every customer"');
    expect(drift.out).toContain("+ role support");

    const applied = await cli(t.owner.token, "config", "apply", "--org", t.org.slug, "-f", file);
    expect(applied, applied.err).toMatchObject({ code: 0, out: expect.stringContaining("Applied.") });
    expect(await cli(t.owner.token, "config", "plan", "--org", t.org.slug, "-f", file)).toMatchObject({ code: 0 });

    const unknown = await cli(t.owner.token, "config", "plan", "--org", "no-such-org", "-f", file);
    expect(unknown).toMatchObject({ code: 1, err: expect.stringContaining('No organization "no-such-org"') });
  });

  it("sets a secret the file references from standard input or --from-env, never from an argument, and apply then uses it", async () => {
    const t = await createTenant();
    const file = path.join(dir, `${t.org.slug}-secret.yaml`);
    const doc = parse((await cli(t.owner.token, "config", "export", "--org", t.org.slug)).out);
    doc.connectors = [{ slug: "crm", type: "http", name: "CRM", baseUrl: "https://crm.example.com", headers: { Authorization: "Bearer ${secret:CRM_TOKEN}" }, tools: [] }];
    fs.writeFileSync(file, stringify(doc));

    const missing = await cli(t.owner.token, "config", "apply", "--org", t.org.slug, "-f", file);
    expect(missing).toMatchObject({ code: 1, err: expect.stringContaining('The secret "CRM_TOKEN" is not set') });

    const fromTerminal = await cliWith({ token: t.owner.token, stdin: null }, "config", "secret", "--org", t.org.slug, "CRM_TOKEN");
    expect(fromTerminal).toMatchObject({ code: 1, err: expect.stringContaining("Pipe the value in") });
    const unsetVariable = await cliWith({ token: t.owner.token }, "config", "secret", "--org", t.org.slug, "CRM_TOKEN", "--from-env", "NOT_SET_HERE");
    expect(unsetVariable).toMatchObject({ code: 1, err: expect.stringContaining("NOT_SET_HERE is not set") });

    const piped = await cliWith({ token: t.owner.token, stdin: "s3cret-piped\n" }, "config", "secret", "--org", t.org.slug, "CRM_TOKEN");
    expect(piped, piped.err).toMatchObject({ code: 0, out: expect.stringContaining("Secret CRM_TOKEN is set") });
    expect(piped.out + piped.err).not.toContain("s3cret");
    const applied = await cli(t.owner.token, "config", "apply", "--org", t.org.slug, "-f", file);
    expect(applied, applied.err).toMatchObject({ code: 0, out: expect.stringContaining("Applied.") });
    expect(await connectorAuthorization(t.org.id)).toBe("Bearer s3cret-piped");

    const fromEnv = await cliWith({ token: t.owner.token, env: { CRM_TOKEN_VALUE: "from-the-env" } }, "config", "secret", "--org", t.org.slug, "CRM_TOKEN", "--from-env", "CRM_TOKEN_VALUE");
    expect(fromEnv, fromEnv.err).toMatchObject({ code: 0 });
    const changed = await cli(t.owner.token, "config", "apply", "--org", t.org.slug, "-f", file);
    expect(changed, changed.err).toMatchObject({ code: 0, out: expect.stringContaining("headers.Authorization") });
    expect(await connectorAuthorization(t.org.id)).toBe("Bearer from-the-env");
  });

  it("answers an unreachable instance, a URL without a scheme and a file it cannot use in one sentence each, exit 1", async () => {
    const t = await createTenant();
    const run = (url: string, ...argv: string[]) => {
      let err = "";
      return runConfigCli(argv, { env: { SWITCHBOARD_URL: url, SWITCHBOARD_TOKEN: t.owner.token }, out: () => undefined, err: (x) => (err += x) }).then((code) => ({ code, err }));
    };
    const closed = await closedPort();
    expect(await run(`http://127.0.0.1:${closed}`, "config", "export", "--org", t.org.slug)).toEqual({ code: 1, err: expect.stringMatching(new RegExp(`^Could not reach http://127\\.0\\.0\\.1:${closed}: ECONNREFUSED\\.`)) });
    expect(await run("localhost:3100", "config", "export", "--org", t.org.slug)).toEqual({ code: 1, err: expect.stringContaining("SWITCHBOARD_URL must be an http(s) URL") });
    expect(await run(app.origin, "config", "export", "--org", t.org.slug, "-f", path.join(dir, "no-such-dir", "x.yaml"))).toEqual({ code: 1, err: expect.stringContaining("no such file or directory") });
    expect(await run(app.origin, "config", "plan", "--org", t.org.slug, "-f", dir)).toEqual({ code: 1, err: `Cannot use ${dir}: it is a directory.\n` });
  });

  it("answers --help on every command through the bin entry, called from any directory", () => {
    for (const args of [["--help"], ["config", "--help"], ["config", "export", "--help"], ["config", "plan", "--help"], ["config", "apply", "--help"], ["config", "secret", "--help"]]) {
      // From outside the checkout, as a user's shell calls it (the bin finds the checkout's own tsx).
      const run = spawnSync(process.execPath, [path.join(process.cwd(), "bin", "switchboard.mjs"), ...args], { encoding: "utf8", timeout: 120_000, cwd: os.tmpdir() });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain("Usage: switchboard");
    }
  }, 300_000);
});

/** The Authorization header stored (encrypted) on the organization's one connector. */
async function connectorAuthorization(orgId: string): Promise<string | undefined> {
  const row = await db().connector.findFirstOrThrow({ where: { orgId } });
  return decryptJson<Record<string, string>>(row.secretHeaders!).Authorization;
}

/** A port on 127.0.0.1 that nothing listens on (one just released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
