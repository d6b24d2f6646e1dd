-- The bump of 20261129200023 ran once per row: deleting or importing 200 resources bumped the
-- organization's config version 200 times (200 updates of one row, each dropping every cached
-- MCP view of the org). One bump per statement and organization is what the caches need.
-- A trigger with transition tables serves a single event, hence three triggers on one function.
DROP TRIGGER IF EXISTS "mcp_resources_bump_config_version" ON "mcp_resources";
DROP FUNCTION IF EXISTS "bump_config_version_for_mcp_resource"();

CREATE FUNCTION "bump_config_version_for_mcp_resources"() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "organizations" o SET "config_version" = o."config_version" + 1
    WHERE o."id" IN (SELECT c."org_id" FROM "connectors" c WHERE c."id" IN (SELECT "connector_id" FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE "organizations" o SET "config_version" = o."config_version" + 1
    WHERE o."id" IN (SELECT c."org_id" FROM "connectors" c WHERE c."id" IN (
      SELECT "connector_id" FROM new_rows UNION SELECT "connector_id" FROM old_rows));
  ELSE
    UPDATE "organizations" o SET "config_version" = o."config_version" + 1
    WHERE o."id" IN (SELECT c."org_id" FROM "connectors" c WHERE c."id" IN (SELECT "connector_id" FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "mcp_resources_bump_config_version_insert"
AFTER INSERT ON "mcp_resources" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "bump_config_version_for_mcp_resources"();

CREATE TRIGGER "mcp_resources_bump_config_version_update"
AFTER UPDATE ON "mcp_resources" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "bump_config_version_for_mcp_resources"();

CREATE TRIGGER "mcp_resources_bump_config_version_delete"
AFTER DELETE ON "mcp_resources" REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION "bump_config_version_for_mcp_resources"();
