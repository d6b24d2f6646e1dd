-- How many days an organization keeps its audit events (NULL: for ever, as before).
ALTER TABLE "organizations" ADD COLUMN "audit_retention_days" INTEGER;
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_audit_retention_days_check" CHECK ("audit_retention_days" IS NULL OR "audit_retention_days" >= 1);
