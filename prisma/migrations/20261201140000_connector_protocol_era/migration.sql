-- Per mcp connector: the protocol era of its upstream connection and the upstream transport
-- (issue 12 point 6). Existing connectors keep today's behaviour: probe, Streamable HTTP.
ALTER TABLE "connectors" ADD COLUMN "protocol_era" TEXT NOT NULL DEFAULT 'auto';
ALTER TABLE "connectors" ADD COLUMN "transport" TEXT NOT NULL DEFAULT 'streamable-http';

ALTER TABLE "connectors" ADD CONSTRAINT "connectors_protocol_era_check" CHECK ("protocol_era" IN ('auto', '2025-11-25', '2026-07-28'));
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_transport_check" CHECK ("transport" IN ('streamable-http', 'sse'));
-- The legacy HTTP+SSE transport exists only in the 2025-era protocol.
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_sse_era_check" CHECK ("transport" <> 'sse' OR "protocol_era" <> '2026-07-28');
