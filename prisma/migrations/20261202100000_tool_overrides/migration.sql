-- Issue 26: http tools may shape their JSON answer (`{ select }`), and each MCP server may
-- rename, describe, annotate or hide the tools of its connectors.
ALTER TABLE "tools" ADD COLUMN "response" JSONB;

CREATE TABLE "tool_overrides" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "connector_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "name" TEXT,
    "title" TEXT,
    "description" TEXT,
    "annotations" JSONB,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "tool_overrides_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "tool_overrides_server_id_connector_id_tool_key" ON "tool_overrides"("server_id", "connector_id", "tool");
CREATE INDEX "tool_overrides_org_id_idx" ON "tool_overrides"("org_id");
CREATE INDEX "tool_overrides_connector_id_idx" ON "tool_overrides"("connector_id");

ALTER TABLE "tool_overrides" ADD CONSTRAINT "tool_overrides_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_servers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tool_overrides" ADD CONSTRAINT "tool_overrides_connector_id_fkey" FOREIGN KEY ("connector_id") REFERENCES "connectors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
