-- Whether a sign-in whose provider sends no `email_verified` claim at all is accepted: a choice
-- per SSO connection. New connections require the claim to be true; connections that exist today
-- accepted a missing claim (Entra ID sends none), so they keep doing so until an admin unticks it.
ALTER TABLE "sso_connections" ADD COLUMN "accept_email_without_verified_claim" BOOLEAN NOT NULL DEFAULT false;
UPDATE "sso_connections" SET "accept_email_without_verified_claim" = true;
