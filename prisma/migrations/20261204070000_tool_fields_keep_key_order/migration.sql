-- A tool's annotations, icons, execution and _meta, and a connector's upstream catalog (its
-- prompts, resources and templates as listed), keep their keys in the order the upstream wrote
-- them, as the schemas do since 20261204030000: JSONB sorted them (shorter keys first). Rows
-- stored before keep JSONB's order until they are written again (an admin's Reload).
ALTER TABLE "tools"
  ALTER COLUMN "annotations" TYPE JSON USING "annotations"::json,
  ALTER COLUMN "icons" TYPE JSON USING "icons"::json,
  ALTER COLUMN "execution" TYPE JSON USING "execution"::json,
  ALTER COLUMN "meta" TYPE JSON USING "meta"::json;
ALTER TABLE "connectors"
  ALTER COLUMN "upstream_catalog" DROP DEFAULT,
  ALTER COLUMN "upstream_catalog" TYPE JSON USING "upstream_catalog"::json,
  ALTER COLUMN "upstream_catalog" SET DEFAULT '{}';
ALTER TABLE "tool_overrides"
  ALTER COLUMN "annotations" TYPE JSON USING "annotations"::json;
