-- Whether the instance credential made an invitation. An owner-role invitation carries its
-- inviter's authority, and a deleted inviter's account leaves invited_by_id NULL exactly like the
-- instance credential's invitations: without this column such an invitation stood again.
ALTER TABLE "org_invitations" ADD COLUMN "invited_by_instance" BOOLEAN NOT NULL DEFAULT false;
-- Rows that exist: no release before this one deleted accounts (only plain SQL could), so an
-- invitation without an inviter was the instance credential's. (Its audit event cannot tell:
-- an organization's audit retention may already have pruned it.)
UPDATE "org_invitations" SET "invited_by_instance" = true WHERE "invited_by_id" IS NULL;
