-- What tool.call audit events keep: by default metadata only (sizes, hashes, outcome), so the
-- audit log is no side door to a member's private content returned by a tool.
CREATE TYPE "ToolAuditDetail" AS ENUM ('metadata', 'arguments', 'arguments_and_results');

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "tool_audit_detail" "ToolAuditDetail" NOT NULL DEFAULT 'metadata';
