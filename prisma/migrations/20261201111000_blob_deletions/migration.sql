-- Blobs of deleted files, queued in the deleting transaction and removed from the blob store
-- after it commits; a crash between the commit and the store delete leaves the row, which the
-- periodic worker retries.
CREATE TABLE "blob_deletions" (
    "storage_key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blob_deletions_pkey" PRIMARY KEY ("storage_key")
);

CREATE INDEX "blob_deletions_next_attempt_at_idx" ON "blob_deletions"("next_attempt_at");

-- The worker and the orphan sweep ask which storage keys still have a row.
CREATE INDEX "files_storage_key_idx" ON "files"("storage_key");

-- A file row can disappear by a file delete, by the cascade of a workspace, organization or
-- user delete, or by plain SQL: a trigger queues its blob in every case, in the same
-- transaction, so the queue commits exactly when the rows' deletion does.
CREATE OR REPLACE FUNCTION "queue_blob_deletion"() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD."storage_key" IS DISTINCT FROM NEW."storage_key" THEN
    INSERT INTO "blob_deletions" ("storage_key") VALUES (OLD."storage_key")
    ON CONFLICT ("storage_key") DO UPDATE SET "next_attempt_at" = CURRENT_TIMESTAMP;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "files_queue_blob_deletion"
AFTER DELETE OR UPDATE OF "storage_key" ON "files"
FOR EACH ROW EXECUTE FUNCTION "queue_blob_deletion"();
