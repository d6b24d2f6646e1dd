-- A tool's input and output schemas (and the approved definition served while a change waits)
-- keep their keys in the order they were written: JSONB sorted them (shorter keys first), so a
-- gateway's tool listed its parameters in another order than its upstream did. Rows stored
-- before keep JSONB's order until they are written again (an admin's Reload, an http tool saved).
ALTER TABLE "tools"
  ALTER COLUMN "input_schema" DROP DEFAULT,
  ALTER COLUMN "input_schema" TYPE JSON USING "input_schema"::json,
  ALTER COLUMN "input_schema" SET DEFAULT '{"type":"object"}',
  ALTER COLUMN "output_schema" TYPE JSON USING "output_schema"::json,
  ALTER COLUMN "approved_definition" TYPE JSON USING "approved_definition"::json;
