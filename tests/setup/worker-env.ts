import { inject } from "vitest";

// Each test worker talks to the database the global setup started.
process.env.DATABASE_URL = inject("databaseUrl");
