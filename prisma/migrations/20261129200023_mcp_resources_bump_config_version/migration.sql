-- Stored resources may reach mcp_resources by plain SQL (imports, older versions), bypassing
-- the application. MCP snapshots are cached per organization config version, so any change to
-- this table bumps the version of the organization owning the row's connector.
CREATE OR REPLACE FUNCTION "bump_config_version_for_mcp_resource"() RETURNS trigger AS $$
BEGIN
  UPDATE "organizations" o SET "config_version" = o."config_version" + 1
  FROM "connectors" c
  WHERE c."id" IN (
    CASE WHEN TG_OP = 'DELETE' THEN OLD."connector_id" ELSE NEW."connector_id" END,
    CASE WHEN TG_OP = 'UPDATE' THEN OLD."connector_id" ELSE NULL END
  ) AND o."id" = c."org_id";
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "mcp_resources_bump_config_version"
AFTER INSERT OR UPDATE OR DELETE ON "mcp_resources"
FOR EACH ROW EXECUTE FUNCTION "bump_config_version_for_mcp_resource"();
