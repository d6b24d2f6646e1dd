-- Values that organization configuration documents reference as ${secret:NAME}: sealed
-- (AES-256-GCM), write-only, resolved into each object's own secret when a document is applied.
CREATE TABLE "org_secrets" (
    "org_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "org_secrets_pkey" PRIMARY KEY ("org_id","name")
);
ALTER TABLE "org_secrets" ADD CONSTRAINT "org_secrets_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
