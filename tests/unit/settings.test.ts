import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SettingError, setting, settingIn, settingProblems } from "@/lib/config/settings";

/**
 * Every setting is read in lib/config/settings.ts; a value that is not valid stops the start
 * with a sentence naming the variable (a negative API_RATE_LIMIT used to make every
 * authenticated API call a 500).
 */

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["API_RATE_LIMIT", "MCP_STATEFUL_SESSIONS", "PUBLIC_URL", "LOG_LEVEL"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("settings", () => {
  it("an unset or blank variable is the default; a set one is parsed", () => {
    expect(settingIn({}, "API_RATE_LIMIT")).toBe(600);
    expect(settingIn({ API_RATE_LIMIT: "  " }, "API_RATE_LIMIT")).toBe(600);
    expect(settingIn({ API_RATE_LIMIT: " 25 " }, "API_RATE_LIMIT")).toBe(25);
    expect(settingIn({ MCP_STATEFUL_SESSIONS: "TRUE" }, "MCP_STATEFUL_SESSIONS")).toBe(true);
    expect(settingIn({ EMBEDDED_PG_PORT: undefined }, "EMBEDDED_PG_PORT")).toBeLessThan(32768);
    expect(settingIn({}, "SSO_DNS_SERVERS")).toEqual([]);
    expect(settingIn({ SSO_DNS_SERVERS: "10.0.0.2, 127.0.0.1:5353,[::1]:53" }, "SSO_DNS_SERVERS")).toEqual(["10.0.0.2", "127.0.0.1:5353", "[::1]:53"]);
  });

  it.each([
    ["API_RATE_LIMIT", "-5"],
    ["API_RATE_LIMIT", "ten"],
    ["API_RATE_LIMIT", "1.5"],
    ["MCP_STATEFUL_SESSIONS", "yes please"],
    ["PUBLIC_URL", "not a url"],
    ["LOG_LEVEL", "loud"],
    // dns.Resolver#setServers takes addresses only: a host name would fail at the first Verify.
    ["SSO_DNS_SERVERS", "dns.example.com"],
    ["SSO_DNS_SERVERS", "10.0.0.2:70000"],
  ] as const)("%s=%s is refused with a message naming the variable", (name, value) => {
    expect(() => settingIn({ [name]: value }, name)).toThrow(SettingError);
    expect(() => settingIn({ [name]: value }, name)).toThrow(new RegExp(`^${name}=`));
  });

  it("follows the environment as it changes (tests and restarts see the new value)", () => {
    process.env.API_RATE_LIMIT = "7";
    expect(setting("API_RATE_LIMIT")).toBe(7);
    process.env.API_RATE_LIMIT = "9";
    expect(setting("API_RATE_LIMIT")).toBe(9);
  });

  it("settingProblems lists each variable that is not valid", () => {
    process.env.API_RATE_LIMIT = "-1";
    process.env.PUBLIC_URL = "ftp://x";
    const problems = settingProblems();
    expect(problems.some((p) => p.startsWith("API_RATE_LIMIT="))).toBe(true);
    expect(problems.some((p) => p.startsWith("PUBLIC_URL="))).toBe(true);
  });

  it("npm start refuses a negative API_RATE_LIMIT with one sentence and no stack trace", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: { ...process.env, API_RATE_LIMIT: "-5", SWITCHBOARD_DATA_DIR: fs.mkdtempSync(path.join("/tmp", "sb-settings-")) },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('API_RATE_LIMIT="-5" is not valid: expected a whole number greater than 0.');
    expect(run.stdout + run.stderr).not.toMatch(/\n\s+at /);
    // It points at a page that exists and lists the setting (README.md has no settings table).
    const page = /every setting is described in (\S+\.md)/.exec(run.stdout)?.[1];
    expect(page).toBe("docs/configuration.md");
    expect(fs.readFileSync(page!, "utf8")).toContain("`API_RATE_LIMIT`");
  });
});

describe("one typed place", () => {
  const ALLOWED = new Set(["NODE_ENV", "NEXT_RUNTIME", "NEXT_PHASE", "AUTH_TRUST_HOST"]);

  it("no product code reads a setting from process.env except lib/config/settings.ts", () => {
    const files = ["lib", "app", "components"].flatMap((dir) =>
      fs.readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes("generated"))
        .map((f) => path.join(dir, f)),
    ).concat(["proxy.ts", "instrumentation.ts"]);
    const offenders: string[] = [];
    for (const file of files) {
      if (file === path.join("lib", "config", "settings.ts")) continue;
      for (const m of fs.readFileSync(file, "utf8").matchAll(/process\.env(?:\.([A-Z_][A-Z0-9_]*)|\[)/g)) {
        if (!m[1] || !ALLOWED.has(m[1])) offenders.push(`${file}: ${m[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
