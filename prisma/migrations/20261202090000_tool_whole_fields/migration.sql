-- Tools keep every field MCP defines for them, not only name, title, description and input
-- schema: clients decide from annotations whether to ask before a call, MCP Apps live in _meta.
ALTER TABLE "tools" ADD COLUMN "output_schema" JSONB,
ADD COLUMN "annotations" JSONB,
ADD COLUMN "icons" JSONB,
ADD COLUMN "execution" JSONB,
ADD COLUMN "meta" JSONB;
