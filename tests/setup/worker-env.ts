import { inject } from "vitest";

// Each test worker talks to the database the global setup started.
process.env.DATABASE_URL = inject("databaseUrl");

// One signing secret for every process of a run — the test workers and the apps the browser
// tests start (they inherit this environment) — since they share one database: keys one of them
// stores encrypted (the OAuth server's JWKS) must be readable by the others, as for instances
// that share NEXTAUTH_SECRET in production. Without it each app would use its own data
// directory's generated secret, and which one wrote first would decide which tests fail.
process.env.NEXTAUTH_SECRET ??= "switchboard-test-signing-secret";

// The test worker's own database client (seeding, checks), not the product under test: the
// product's 1 s connect timeout fires spuriously in a process starved of CPU on a loaded 2-core
// machine, and a seed that fails that way fails the whole file. Apps and instances the tests
// start inherit this environment, so they set their own value when a test needs the default.
process.env.DB_CONNECT_TIMEOUT_MS ??= "10000";
