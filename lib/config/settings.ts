/**
 * Every setting of the platform, declared and read in this one place. Each is an environment
 * variable; none is required. `setting(name)` parses its variable on use (cached per raw value,
 * so a test or a restart sees a changed environment) and throws a SettingError naming the
 * variable when the value is not valid; `settingProblems()` checks them all at start so a bad
 * value stops the process with one clear sentence instead of failing every request later.
 */

import path from "node:path";
import { isIP } from "node:net";

type Parser<T> = (raw: string) => T;

interface Declaration<T> {
  parse: Parser<T>;
  fallback: T;
  /** What a valid value looks like, for the error message. */
  expects: string;
}

export class SettingError extends Error {
  constructor(readonly variable: string, readonly value: string, expects: string) {
    super(`${variable}=${JSON.stringify(value)} is not valid: expected ${expects}.`);
    this.name = "SettingError";
  }
}

const INVALID = Symbol("invalid");
type Parsed<T> = T | typeof INVALID;

function positiveInt(fallback: number): Declaration<number> {
  return {
    fallback,
    expects: "a whole number greater than 0",
    parse: (raw) => (/^\d+$/.test(raw) && Number(raw) > 0 && Number.isSafeInteger(Number(raw)) ? Number(raw) : (INVALID as never)),
  };
}

function positiveNumber(fallback: number): Declaration<number> {
  return {
    fallback,
    expects: "a number greater than 0",
    parse: (raw) => {
      const value = Number(raw);
      return Number.isFinite(value) && value > 0 ? value : (INVALID as never);
    },
  };
}

function text(fallback: string | undefined = undefined): Declaration<string | undefined> {
  return { fallback, expects: "text", parse: (raw) => raw };
}

function flag(fallback: boolean): Declaration<boolean> {
  return {
    fallback,
    expects: "true or false",
    parse: (raw) => {
      const value = raw.toLowerCase();
      if (value === "true" || value === "1") return true;
      if (value === "false" || value === "0") return false;
      return INVALID as never;
    },
  };
}

function url(protocols: string[]): Declaration<string | undefined> {
  return {
    fallback: undefined,
    expects: `a URL (${protocols.join(", ")})`,
    parse: (raw) => {
      try {
        return protocols.includes(new URL(raw).protocol.replace(/:$/, "")) ? raw : (INVALID as never);
      } catch {
        return INVALID as never;
      }
    },
  };
}

function optionalFlag(): Declaration<boolean | undefined> {
  const { parse, expects } = flag(false);
  return { fallback: undefined, expects, parse };
}

/** A comma list of CIDRs (`10.0.0.0/8`, `::1/128`) or bare addresses, each one a whole host. */
function cidrList(): Declaration<string[]> {
  return {
    fallback: [],
    expects: "a comma list of IP addresses or CIDRs, e.g. 10.0.0.0/8,::1",
    parse: (raw) => {
      const entries = raw.split(",").map((entry) => entry.trim()).filter(Boolean);
      return entries.every(isCidr) ? entries : (INVALID as never);
    },
  };
}

function isCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A comma list of DNS servers, each an IP address with an optional port (`10.0.0.2`, `10.0.0.2:5353`, `[::1]:53`). */
function dnsServerList(): Declaration<string[]> {
  return {
    fallback: [],
    expects: "a comma list of DNS server IP addresses, each with an optional port, e.g. 10.0.0.2,[::1]:5353",
    parse: (raw) => {
      const entries = raw.split(",").map((entry) => entry.trim()).filter(Boolean);
      return entries.length > 0 && entries.every(isDnsServer) ? entries : (INVALID as never);
    },
  };
}

function isDnsServer(entry: string): boolean {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(entry) ?? [];
  const [, bracketed, plain, port] = match;
  if (!match.length || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) return isIP(entry) === 6;
  return bracketed ? isIP(bracketed) === 6 : isIP(plain ?? "") === 4;
}

function optionalOneOf<T extends string>(values: readonly T[]): Declaration<T | undefined> {
  const { parse, expects } = oneOf(values, values[0]);
  return { fallback: undefined, expects, parse };
}

function oneOf<T extends string>(values: readonly T[], fallback: T): Declaration<T> {
  return {
    fallback,
    expects: `one of ${values.join(", ")}`,
    parse: (raw) => ((values as readonly string[]).includes(raw) ? (raw as T) : (INVALID as never)),
  };
}

const DECLARATIONS = {
  PORT: positiveInt(3000),
  PUBLIC_URL: url(["http", "https"]),
  OAUTH_ENABLED: flag(true),
  // Test-only: Client ID Metadata Documents on loopback http (never in production: SSRF).
  OAUTH_CIMD_ALLOW_LOOPBACK: flag(false),
  DATABASE_URL: url(["postgres", "postgresql"]),
  // Below the ephemeral range (32768+) so an outgoing connection can never take it first.
  EMBEDDED_PG_PORT: positiveInt(25432),
  SWITCHBOARD_DATA_DIR: text(),
  SWITCHBOARD_FILES_DIR: text(),
  REDIS_URL: text(),
  INSTANCE_API_KEY: text(),
  SECRET_KEY: text(),
  NEXTAUTH_SECRET: text(),
  AUTH_SECRET: text(),
  NEXTAUTH_URL: url(["http", "https"]),
  INITIAL_ADMIN_EMAIL: text(),
  INITIAL_ADMIN_PASSWORD: text(),
  INITIAL_ADMIN_NAME: text(),
  LOGIN_MAX_PER_ACCOUNT: positiveInt(10),
  LOGIN_MAX_PER_IP: positiveInt(50),
  LOGIN_WINDOW_SEC: positiveInt(900),
  OAUTH_MAX_PER_IP: positiveInt(300),
  OAUTH_NEW_CLIENTS_PER_IP: positiveInt(30),
  OAUTH_NEW_CLIENTS_WINDOW_SEC: positiveInt(3600),
  BEARER_MAX_FAILURES_PER_IP: positiveInt(30),
  BEARER_FAILURE_WINDOW_SEC: positiveInt(60),
  API_RATE_LIMIT: positiveInt(600),
  API_RATE_WINDOW_SEC: positiveInt(60),
  API_MAX_BODY_BYTES: positiveInt(1024 * 1024),
  HTTP_TOOL_TIMEOUT_MS: positiveInt(30_000),
  HTTP_TOOL_MAX_RESPONSE_BYTES: positiveInt(5 * 1024 * 1024),
  UPSTREAM_IDLE_SEC: positiveNumber(300),
  UPSTREAM_CALL_TIMEOUT_MS: positiveInt(60_000),
  UPSTREAM_CATALOG_MAX_ENTRIES: positiveInt(2000),
  UPSTREAM_CATALOG_MAX_PER_SERVER: positiveInt(10_000),
  MCP_ALLOWED_HOSTS: text(),
  MCP_CORS_ORIGINS: text(),
  MCP_STATEFUL_SESSIONS: flag(false),
  MCP_SESSION_IDLE_MIN: positiveNumber(30),
  MCP_MAX_SESSIONS: positiveInt(1000),
  MCP_RATE_LIMIT: positiveInt(600),
  MCP_RATE_WINDOW_SEC: positiveInt(60),
  MCP_DEMO_RATE_LIMIT: positiveInt(60),
  MCP_DEMO_RATE_WINDOW_SEC: positiveInt(60),
  MCP_MAX_BODY_BYTES: positiveInt(4 * 1024 * 1024),
  MCP_RECONCILE_INTERVAL_MS: positiveInt(2000),
  MCP_SERVE_DIRECT: flag(true),
  MAX_UPLOAD_BYTES: positiveInt(50 * 1024 * 1024),
  WORKSPACE_QUOTA_BYTES: positiveInt(1024 * 1024 * 1024),
  BLOB_WORKER_INTERVAL_SEC: positiveInt(60),
  USAGE_FLUSH_INTERVAL_MS: positiveInt(10_000),
  USAGE_RETENTION_DAYS: positiveInt(90),
  AUDIT_PRUNE_INTERVAL_SEC: positiveInt(3600),
  HOST_RESOURCES_RATE_LIMIT: positiveInt(120),
  HOST_RESOURCES_RATE_WINDOW_SEC: positiveInt(60),
  HOST_RESOURCES_LIST_MAX: positiveInt(5000),
  S3_BUCKET: text(),
  S3_ENDPOINT: url(["http", "https"]),
  S3_REGION: text("us-east-1"),
  S3_ACCESS_KEY_ID: text(),
  S3_SECRET_ACCESS_KEY: text(),
  S3_FORCE_PATH_STYLE: optionalFlag(),
  // Tests are quiet unless LOG_LEVEL asks otherwise.
  LOG_LEVEL: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const, process.env.NODE_ENV === "test" ? "silent" : "info"),
  DB_CONNECT_TIMEOUT_MS: positiveInt(1000),
  DB_QUERY_TIMEOUT_MS: positiveInt(10_000),
  DB_POOL_MAX: positiveInt(10),
  RATE_LIMIT_REDIS_TIMEOUT_MS: positiveInt(300),
  METRICS_TOKEN: text(),
  SMTP_URL: url(["smtp", "smtps"]),
  MAIL_FROM: text(),
  TRUSTED_PROXIES: cidrList(),
  // Where SSO domain verification looks up its TXT records; unset: the system's resolvers.
  SSO_DNS_SERVERS: dnsServerList(),
  // OpenTelemetry's standard variables (its specification names them; its SDK reads them too):
  // traces are exported when an OTLP endpoint or OTEL_TRACES_EXPORTER is set (lib/observability).
  OTEL_SDK_DISABLED: flag(false),
  OTEL_TRACES_EXPORTER: optionalOneOf(["otlp", "none"] as const),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(["http", "https"]),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url(["http", "https"]),
  OTEL_EXPORTER_OTLP_PROTOCOL: oneOf(["http/protobuf", "http/json"] as const, "http/protobuf"),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: optionalOneOf(["http/protobuf", "http/json"] as const),
  OTEL_EXPORTER_OTLP_HEADERS: text(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: text(),
  OTEL_SERVICE_NAME: text(),
  OTEL_RESOURCE_ATTRIBUTES: text(),
  OTEL_TRACES_SAMPLER: optionalOneOf(["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const),
  OTEL_TRACES_SAMPLER_ARG: text(),
  OTEL_BSP_SCHEDULE_DELAY: positiveInt(5000),
} satisfies Record<string, Declaration<unknown>>;

export type SettingName = keyof typeof DECLARATIONS;
type ValueOf<N extends SettingName> = (typeof DECLARATIONS)[N] extends Declaration<infer T> ? T : never;

const cache = new Map<SettingName, { raw: string | undefined; value: unknown }>();

/** The value of one setting: its variable parsed, or the default when unset or blank. */
export function setting<N extends SettingName>(name: N): ValueOf<N> {
  const raw = process.env[name];
  const hit = cache.get(name);
  if (hit && hit.raw === raw) return hit.value as ValueOf<N>;
  const value = settingIn({ [name]: raw }, name);
  cache.set(name, { raw, value });
  return value;
}

/** The same, read from another set of variables (a configuration being checked, a test's). */
export function settingIn<N extends SettingName>(env: Record<string, string | undefined>, name: N): ValueOf<N> {
  const raw = env[name];
  const value = parse(name, raw);
  if (value === INVALID) throw new SettingError(name, raw ?? "", DECLARATIONS[name].expects);
  return value as ValueOf<N>;
}

function parse(name: SettingName, raw: string | undefined): Parsed<unknown> {
  const declaration = DECLARATIONS[name] as Declaration<unknown>;
  const trimmed = raw?.trim();
  if (!trimmed) return declaration.fallback;
  return declaration.parse(trimmed);
}

/** The last line after settingProblems(), from npm start and from `next start` alike. */
export const SETTINGS_NOT_STARTED = "Not started: fix the setting(s) above (every setting is described in docs/configuration.md).";

/** One sentence per setting whose value is not valid (empty when all are). */
export function settingProblems(): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(DECLARATIONS) as SettingName[]) {
    const raw = process.env[name];
    if (parse(name, raw) === INVALID) {
      problems.push(new SettingError(name, raw ?? "", DECLARATIONS[name].expects).message);
    }
  }
  return problems;
}

/** The names of every setting (docs/configuration.md's table lists exactly these). */
export function settingNames(): SettingName[] {
  return Object.keys(DECLARATIONS) as SettingName[];
}

/** `SWITCHBOARD_DATA_DIR`, or `./.data`: the embedded database, generated secrets, local blobs. */
export function dataDir(): string {
  // Runtime data, not a source file: keep the bundler from tracing the whole project for it.
  return setting("SWITCHBOARD_DATA_DIR") ?? path.join(/*turbopackIgnore: true*/ process.cwd(), ".data");
}
