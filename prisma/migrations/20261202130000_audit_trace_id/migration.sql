-- The trace id of the request that wrote an audit event (issue 28, traces).
ALTER TABLE "audit_events" ADD COLUMN "trace_id" TEXT;
