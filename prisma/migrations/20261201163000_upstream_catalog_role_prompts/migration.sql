-- Issue 12 points 1-2: what discovery finds on an mcp connector's upstream besides tools
-- (prompts, resources, resource templates), and MCP roles whitelisting prompts like tools.
ALTER TABLE "connectors" ADD COLUMN "upstream_catalog" JSONB NOT NULL DEFAULT '{}';

CREATE TABLE "mcp_role_prompts" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "role_id" TEXT NOT NULL,
    "connector_id" TEXT NOT NULL,
    "prompt_name" TEXT NOT NULL,
    CONSTRAINT "mcp_role_prompts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "mcp_role_prompts_org_id_idx" ON "mcp_role_prompts"("org_id");
CREATE INDEX "mcp_role_prompts_connector_id_idx" ON "mcp_role_prompts"("connector_id");
CREATE UNIQUE INDEX "mcp_role_prompts_role_id_connector_id_prompt_name_key" ON "mcp_role_prompts"("role_id", "connector_id", "prompt_name");
ALTER TABLE "mcp_role_prompts" ADD CONSTRAINT "mcp_role_prompts_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "mcp_roles"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "mcp_role_prompts" ADD CONSTRAINT "mcp_role_prompts_connector_id_fkey" FOREIGN KEY ("connector_id") REFERENCES "connectors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
