-- A tool's title for people (MCP tool `title`), kept apart from its description.
ALTER TABLE "tools" ADD COLUMN "title" TEXT;
