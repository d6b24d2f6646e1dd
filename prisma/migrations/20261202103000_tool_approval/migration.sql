-- Issue 26 point 2: a tool whose definition changes upstream keeps serving its approved one,
-- and a new tool is not served, until an admin approves. New mcp connectors turn it on;
-- existing connectors keep serving what their upstream lists (false).
ALTER TABLE "connectors" ADD COLUMN "tool_approval" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "tools" ADD COLUMN "approval_state" TEXT,
ADD COLUMN "approved_definition" JSONB;
ALTER TABLE "tools" ADD CONSTRAINT "tools_approval_state_check" CHECK ("approval_state" IN ('changed', 'new'));
