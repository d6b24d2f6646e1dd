/**
 * Applies prisma/migrations with Prisma's own schema engine, compiled to WebAssembly
 * (`@prisma/schema-engine-wasm`), talking to PostgreSQL through `@prisma/adapter-pg`.
 * No native engine is needed (none can be downloaded here), and the engine writes the very
 * `_prisma_migrations` rows the CLI writes, so `prisma migrate deploy` / `migrate status` keep
 * working wherever the native engine exists.
 *
 * This file also holds what scripts/db-migrate.ts needs to *create* migrations: the engine
 * loader, the migrations-directory reader and the adapter factory.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type ErrorRegistry,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine, SchemaFilter } from "@prisma/schema-engine-wasm";

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
export const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] };

/** Serialises concurrent starts. Distinct from the engine's own lock key (72707369). */
const MIGRATE_LOCK_KEY = 7_270_736_901;

export async function applyMigrations(
  databaseUrl: string,
  log: (line: string) => void = () => {},
): Promise<{ applied: string[] }> {
  const migrations = readMigrationsList(MIGRATIONS_DIR);
  const names = migrations.migrationDirectories.map((dir) => dir.path);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    // Fast path for every start after the first: one query, no lock, no engine.
    if (await allApplied(client, names)) return { applied: [] };
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
    // Another process may have applied them while we waited for the lock.
    if (await allApplied(client, names)) return { applied: [] };
    log(`Applying migrations to ${redact(databaseUrl)}`);
    const pool = enginePool(databaseUrl, 2);
    try {
      const { appliedMigrationNames } = await withSchemaEngine(pool, (engine) =>
        engine.applyMigrations({ migrationsList: migrations, filters: NO_FILTER }),
      );
      for (const name of appliedMigrationNames) log(`Applied migration ${name}`);
      return { applied: appliedMigrationNames };
    } finally {
      await pool.end();
    }
  } finally {
    // Ending the session also releases the advisory lock.
    await client.end();
  }
}

/** True when every migration directory has a finished, not rolled back row. */
async function allApplied(client: pg.Client, names: string[]): Promise<boolean> {
  const table = await client.query<{ t: string | null }>("SELECT to_regclass('_prisma_migrations')::text AS t");
  if (!table.rows[0]?.t) return names.length === 0;
  const rows = await client.query<{ migration_name: string }>(
    "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
  );
  const done = new Set(rows.rows.map((row) => row.migration_name));
  return names.every((name) => done.has(name));
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}

/** Reads the migrations directory exactly as the Prisma CLI does before calling the engine. */
export function readMigrationsList(baseDir: string): MigrationList {
  const lockPath = "migration_lock.toml";
  const lockContent = readOrNull(path.join(baseDir, lockPath));
  const dirs = fs.existsSync(baseDir)
    ? fs.readdirSync(baseDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    : [];
  const migrationDirectories = dirs
    .map((dir) => {
      const content = readOrNull(path.join(baseDir, dir.name, "migration.sql"));
      return {
        path: dir.name,
        migrationFile: {
          path: "migration.sql",
          content:
            content === null
              ? { tag: "error" as const, value: `missing ${dir.name}/migration.sql` }
              : { tag: "ok" as const, value: content },
        },
      };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
  return { baseDir, lockfile: { path: lockPath, content: lockContent }, migrationDirectories, shadowDbInitScript: "" };
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * The engine introspects catalog columns of PostgreSQL's internal types ("char", regproc, …),
 * which @prisma/adapter-pg rejects ("Column type 'char' could not be deserialized"). Their
 * values already arrive as strings; relabelling the columns as text lets the adapter pass them.
 */
const CATALOG_TYPE_OIDS = new Set([18, 22, 24, 28, 30, 194, 2202, 2203, 2204, 2205, 2206, 4089, 4096]);
const TEXT_OID = 25;

function relabelCatalogTypes<T>(result: T): T {
  for (const field of (result as { fields?: { dataTypeID: number }[] })?.fields ?? []) {
    if (CATALOG_TYPE_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
  }
  return result;
}

type AnyQuery = (...args: unknown[]) => unknown;

class CatalogTypesClient extends pg.Client {
  // pg.Client.query is heavily overloaded; only the promise and callback forms carry results.
  query(...args: unknown[]): never {
    const callback = typeof args.at(-1) === "function" ? (args.pop() as (e: unknown, r?: unknown) => void) : undefined;
    const first = args[0] as { submit?: unknown } | undefined;
    if (typeof first?.submit === "function") {
      return (super.query as AnyQuery)(...args, ...(callback ? [callback] : [])) as never;
    }
    const promise = ((super.query as AnyQuery)(...args) as Promise<unknown>).then(relabelCatalogTypes);
    if (!callback) return promise as never;
    promise.then((result) => callback(null, result), (error) => callback(error));
    return undefined as never;
  }
}

/** A pool fit for the engine (see CatalogTypesClient); pass it to withSchemaEngine. */
export function enginePool(connectionString: string, max: number): pg.Pool {
  return new pg.Pool({ connectionString, max, Client: CatalogTypesClient, connectionTimeoutMillis: 5_000 });
}

/**
 * adapter-pg runs a migration script by splitting it on every ";", which breaks function
 * bodies ($$ … ; … $$). PostgreSQL's simple query protocol runs a whole multi-statement script
 * in one call, so send it as it is.
 */
function wholeScripts(pool: pg.Pool) {
  return <A extends { executeScript(script: string): Promise<void> }>(adapter: A): A => {
    adapter.executeScript = async (script: string) => {
      await pool.query(script);
    };
    return adapter;
  };
}

/** An adapter factory over `pool`; `shadow` says where a shadow database comes from. */
export function adapterFactory(pool: pg.Pool, shadow: "same-pool" | "none" = "none") {
  const factory = new PrismaPg(pool);
  const aware: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => factory.connect().then(wholeScripts(pool)),
    connectToShadowDb: () =>
      shadow === "same-pool" ? factory.connect().then(wholeScripts(pool)) : Promise.reject(new Error("no shadow database configured")),
  };
  return bindMigrationAwareSqlAdapterFactory(aware);
}

let wasmLoaded: Promise<typeof SchemaEngine> | undefined;

/**
 * Instantiates the engine's WebAssembly once per process. The package's own entry point
 * imports the .wasm file as an ES module, which Node only allows behind a flag; we compile
 * the bytes ourselves and hand them to its JS glue, as Prisma's CLI does.
 */
function loadSchemaEngine(): Promise<typeof SchemaEngine> {
  wasmLoaded ??= (async () => {
    const require = createRequire(path.join(process.cwd(), "package.json"));
    const dir = path.dirname(require.resolve("@prisma/schema-engine-wasm"));
    const glue = await import(pathToFileURL(path.join(dir, "schema_engine_bg.js")).href);
    const bytes = fs.readFileSync(path.join(dir, "schema_engine_bg.wasm"));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    // The engine reports a Rust panic's message through this global before trapping.
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(m: string): void } };
    g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m) => void (lastPanic = m) };
    return glue.SchemaEngine as typeof SchemaEngine;
  })();
  return wasmLoaded;
}

let lastPanic: string | undefined;

/** Runs `work` with an engine connected through `pool`, then frees it. Errors come out readable. */
export async function withSchemaEngine<T>(
  pool: pg.Pool,
  work: (engine: SchemaEngine) => Promise<T>,
  shadow: "same-pool" | "none" = "none",
): Promise<T> {
  const Engine = await loadSchemaEngine();
  const factory = adapterFactory(pool, shadow);
  let engine: SchemaEngine | undefined;
  try {
    engine = await Engine.new({ datamodels: undefined }, () => {}, factory);
    return await work(engine);
  } catch (err) {
    throw readableEngineError(err, factory.errorRegistry);
  } finally {
    engine?.free();
  }
}

/** Engine errors name driver failures only by id ("External error id#3"): look the cause up. */
function readableEngineError(err: unknown, registry: ErrorRegistry): Error {
  const e = err as Error & { code?: string };
  const id = /External error id#(\d+)/.exec(e?.message ?? "")?.[1];
  const cause = id === undefined ? undefined : registry.consumeError(Number(id))?.error;
  if (cause) return new Error(`schema engine: ${(cause as Error).message ?? String(cause)}`, { cause });
  if (e instanceof WebAssembly.RuntimeError && lastPanic) return new Error(`schema engine panicked: ${lastPanic}`);
  const message = String(e?.message ?? e).split("\n   0: ")[0]; // drop the Rust span trace
  return new Error(`schema engine: ${e?.code ? `${e.code} ` : ""}${message}`, { cause: err });
}
