import { z } from "zod";

/** Request and answer shapes of the connector health endpoints (issue 14 "connector health"). */

export const PROBE_METHODS = ["GET", "HEAD", "OPTIONS", "POST"] as const;

export const ConnectorProbe = z
  .object({
    method: z.enum(PROBE_METHODS),
    path: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .regex(/^\//, "The path must start with '/'.")
      .regex(/^[^\s#]*$/, "The path must not contain spaces or '#'.")
      .meta({ description: "Below the connector's baseUrl, query string allowed, e.g. `/health`." }),
  })
  .meta({ id: "ConnectorProbe", description: "The request \"Test connection\" sends to an http connector (default `GET /`)." });
export type ConnectorProbe = z.infer<typeof ConnectorProbe>;

const Instant = z.iso.datetime().nullable();

export const HEALTH_STATUSES = ["healthy", "failing", "unknown"] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export const ConnectorHealth = z
  .object({
    connectorId: z.string(),
    status: z.enum(HEALTH_STATUSES).meta({ description: "`failing` when the latest outcome (a call or a test) is a failure, `unknown` before any." }),
    lastSuccessAt: Instant,
    lastLatencyMs: z.number().int().nullable().meta({ description: "Duration of the latest successful call or test." }),
    lastFailureAt: Instant,
    lastFailureMessage: z.string().nullable().meta({ description: "Why the latest failure failed, secrets scrubbed." }),
    lastTest: z.object({ at: z.iso.datetime(), ok: z.boolean(), message: z.string() }).nullable(),
    probe: ConnectorProbe.nullable().meta({ description: "http connectors: the stored test request; null means `GET /`." }),
  })
  .meta({ id: "ConnectorHealth" });
export type ConnectorHealth = z.infer<typeof ConnectorHealth>;
