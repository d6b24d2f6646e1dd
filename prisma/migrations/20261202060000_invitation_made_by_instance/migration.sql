-- Whether the instance credential made an invitation. An owner-role invitation carries its
-- inviter's authority, and a deleted inviter's account leaves invited_by_id NULL exactly like the
-- instance credential's invitations: without this column such an invitation stood again.
ALTER TABLE "org_invitations" ADD COLUMN "invited_by_instance" BOOLEAN NOT NULL DEFAULT false;
-- Rows that exist: the audit log says who made each one.
UPDATE "org_invitations" AS i SET "invited_by_instance" = true
WHERE i."invited_by_id" IS NULL AND EXISTS (
  SELECT 1 FROM "audit_events" AS a
  WHERE a."target_id" = i."id" AND a."action" = 'org.invitation.create' AND a."actor_type" = 'instance'
);
