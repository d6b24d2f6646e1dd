import fs from "node:fs";
import { Command, CommanderError } from "commander";
import { createSwitchboardClient, ok, SwitchboardApiError, type SwitchboardClient, type components } from "@switchboard/client";

/**
 * `switchboard config export|plan|apply`: an organization's configuration as a file, against
 * any instance (SWITCHBOARD_URL, SWITCHBOARD_TOKEN), through the typed client. `plan` exits 2
 * when the document would change something, so a CI job can check for drift.
 */

type Change = components["schemas"]["ConfigChange"];

export interface CliIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Another fetch (tests); the global one otherwise. */
  fetch?: typeof fetch;
  /** Standard input whole, or null when it is a terminal (nothing piped in). */
  readStdin?: () => Promise<string | null>;
}

interface Target {
  api: SwitchboardClient;
  orgId: string;
}

async function target(io: CliIo, slug: string): Promise<Target> {
  const baseUrl = io.env.SWITCHBOARD_URL;
  const token = io.env.SWITCHBOARD_TOKEN;
  if (!baseUrl || !token) throw new UsageError("Set SWITCHBOARD_URL (the instance) and SWITCHBOARD_TOKEN (INSTANCE_API_KEY or a user API key).");
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`SWITCHBOARD_URL must be an http(s) URL, like https://switchboard.example.com (it is "${baseUrl}").`);
  const api = createSwitchboardClient({ baseUrl, token, ...(io.fetch ? { fetch: io.fetch } : {}) });
  for (let cursor: string | undefined; ; ) {
    const page = await ok(api.GET("/orgs", { params: { query: { limit: 200, ...(cursor ? { cursor } : {}) } } }));
    const org = page.items.find((o) => o.slug === slug);
    if (org) return { api, orgId: org.id };
    if (!page.nextCursor) throw new UsageError(`No organization "${slug}" is visible to this token.`);
    cursor = page.nextCursor;
  }
}

class UsageError extends Error {}

/** The document file as a request body, YAML unless the file is .json. */
function readDocument(file: string): { body: string; type: string } {
  if (!fs.existsSync(file)) throw new UsageError(`No such file: ${file}`);
  if (fs.statSync(file).isDirectory()) throw new UsageError(`Cannot use ${file}: it is a directory.`);
  return { body: fs.readFileSync(file, "utf8"), type: file.endsWith(".json") ? "application/json" : "application/yaml" };
}

const show = (value: unknown) => JSON.stringify(value);

/** The plan as a diff: + created, ~ changed (each field from → to), - deleted. */
export function formatPlan(changes: Change[]): string {
  if (changes.length === 0) return "No changes: the organization matches the document.\n";
  const lines = changes.map((c) => {
    const mark = c.action === "create" ? "+" : c.action === "delete" ? "-" : "~";
    const fields = (c.fields ?? []).map((f) => `\n    ${f.path}: ${show(f.from)} → ${show(f.to)}${f.note ? ` (${f.note})` : ""}`).join("");
    return `${mark} ${c.kind} ${c.name}${fields}`;
  });
  const count = (action: string) => changes.filter((c) => c.action === action).length;
  return `${lines.join("\n")}\n\nPlan: ${count("create")} to create, ${count("update")} to change, ${count("delete")} to delete.\n`;
}

async function postDocument(t: Target, step: "plan" | "apply", file: string, prune: boolean, ifMatch?: string) {
  const { body, type } = readDocument(file);
  const path = step === "plan" ? "/orgs/{orgId}/config/plan" : "/orgs/{orgId}/config/apply";
  const call = t.api.POST(path, {
    params: { path: { orgId: t.orgId }, query: { prune: prune ? "true" : "false" } },
    // The file is sent as written (YAML or JSON), not re-serialized.
    body: body as never,
    bodySerializer: (b: unknown) => b as string,
    headers: { "content-type": type, ...(ifMatch ? { "if-match": ifMatch } : {}) },
  });
  const { response } = await call;
  return { data: (await ok(call)) as { changes: Change[]; discovery?: { connector: string; ok: boolean; error?: string }[] }, etag: response.headers.get("etag") ?? undefined };
}

export async function runConfigCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = new Command("switchboard")
    .description("Switchboard from the command line (SWITCHBOARD_URL, SWITCHBOARD_TOKEN).")
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  const config = program.command("config").description("An organization's configuration as one YAML or JSON document (docs/configuration-as-code.md).");
  const common = (c: Command) => c.requiredOption("--org <slug>", "the organization's slug").exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });

  common(config.command("export").description("Write the organization's configuration to a file (or stdout)."))
    .option("-f, --file <file>", "where to write it (default: stdout); .json writes JSON")
    .action(async (o: { org: string; file?: string }) => {
      const t = await target(io, o.org);
      const json = o.file?.endsWith(".json") ?? false;
      const { data } = await t.api.GET("/orgs/{orgId}/config", { params: { path: { orgId: t.orgId } }, headers: { accept: json ? "application/json" : "application/yaml" }, parseAs: "text" }).then(async (r) => ({ data: await ok(Promise.resolve(r)) }));
      const text = data as unknown as string;
      if (o.file) fs.writeFileSync(o.file, text);
      else io.out(text);
    });

  common(config.command("plan").description("Show what applying the file would change; exit 2 when it would change something."))
    .requiredOption("-f, --file <file>", "the document (YAML, or JSON when it ends in .json)")
    .option("--prune", "also delete what the document leaves out", false)
    .action(async (o: { org: string; file: string; prune: boolean }) => {
      const { data } = await postDocument(await target(io, o.org), "plan", o.file, o.prune);
      io.out(formatPlan(data.changes));
      exitCode = data.changes.length > 0 ? 2 : 0;
    });

  common(config.command("apply").description("Apply the file in one transaction (planned first; refused when the org changed in between)."))
    .requiredOption("-f, --file <file>", "the document (YAML, or JSON when it ends in .json)")
    .option("--prune", "also delete what the document leaves out", false)
    .action(async (o: { org: string; file: string; prune: boolean }) => {
      const t = await target(io, o.org);
      const plan = await postDocument(t, "plan", o.file, o.prune);
      io.out(formatPlan(plan.data.changes));
      if (plan.data.changes.length === 0) return;
      const applied = await postDocument(t, "apply", o.file, o.prune, plan.etag);
      for (const d of applied.data.discovery ?? []) io.out(d.ok ? `Discovered ${d.connector} again.\n` : `Could not discover ${d.connector}: ${d.error}\n`);
      io.out("Applied.\n");
    });

  common(config.command("secret").description("Set a secret the document references as ${secret:NAME}; the value is read from standard input or --from-env, never from the command line."))
    .argument("<name>", "the secret's name, as in ${secret:NAME}")
    .option("--from-env <variable>", "take the value from this environment variable instead of standard input")
    .action(async (name: string, o: { org: string; fromEnv?: string }) => {
      const value = await secretValue(io, o.fromEnv);
      const t = await target(io, o.org);
      await ok(t.api.PUT("/orgs/{orgId}/secrets/{name}", { params: { path: { orgId: t.orgId, name } }, body: { value } }));
      io.out(`Secret ${name} is set in ${o.org}; the next apply uses it.\n`);
    });

  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    if (e instanceof UsageError) io.err(`${e.message}\n`);
    else if (e instanceof SwitchboardApiError) io.err(`${e.message}${formatErrors(e)}\n`);
    else if (unreachable(e)) io.err(`Could not reach ${io.env.SWITCHBOARD_URL}: ${unreachable(e)}. Is SWITCHBOARD_URL right, and is the instance running?\n`);
    else if (fileError(e)) io.err(`${fileError(e)}\n`);
    else throw e;
    return 1;
  }
}

/**
 * A secret's value: from the named environment variable, or piped in (one trailing newline,
 * as `echo` adds, is not part of it). Never an argument: those stay in shell history and `ps`.
 */
async function secretValue(io: CliIo, variable: string | undefined): Promise<string> {
  if (variable !== undefined) {
    const value = io.env[variable];
    if (!value) throw new UsageError(`The environment variable ${variable} is not set or is empty.`);
    return value;
  }
  const piped = (await io.readStdin?.()) ?? null;
  if (piped === null) throw new UsageError("Pipe the value in (printf '%s' \"$VALUE\" | switchboard config secret …) or name a variable with --from-env.");
  const value = piped.replace(/\r?\n$/, "");
  if (value === "") throw new UsageError("The value read from standard input is empty.");
  return value;
}

/** Why fetch could not reach the instance (its cause's code: ECONNREFUSED, ENOTFOUND, …), or null for another error. */
function unreachable(e: unknown): string | null {
  if (!(e instanceof TypeError) || e.message !== "fetch failed") return null;
  const cause = e.cause as { code?: unknown; message?: unknown } | undefined;
  return typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "the connection failed";
}

/** A file the command could not read or write, in one sentence, or null for another error. */
function fileError(e: unknown): string | null {
  const err = e as NodeJS.ErrnoException;
  if (!(e instanceof Error) || typeof err.code !== "string" || typeof err.path !== "string") return null;
  const why: Record<string, string> = { ENOENT: "no such file or directory", EISDIR: "it is a directory", EACCES: "permission denied", ENOTDIR: "a part of the path is not a directory" };
  return `Cannot use ${err.path}: ${why[err.code] ?? err.code}.`;
}

function formatErrors(e: SwitchboardApiError): string {
  return (e.problem?.errors ?? []).map((x) => `\n  ${x.path}: ${x.message}`).join("");
}
