-- An invitation's link carries a secret; only its SHA-256 is kept.
ALTER TABLE "org_invitations" ADD COLUMN "token_hash" TEXT;
CREATE UNIQUE INDEX "org_invitations_token_hash_key" ON "org_invitations"("token_hash");
