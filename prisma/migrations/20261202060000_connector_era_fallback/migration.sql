-- Issue 21: an `auto` mcp connector whose upstream answers server/discover but refuses the
-- 2026-07-28 requests that carry calls falls back to `initialize`; this says so on the
-- connector ({ from, reason, at }), null while the 2026-07-28 path carries calls.
ALTER TABLE "connectors" ADD COLUMN "era_fallback" JSONB;
