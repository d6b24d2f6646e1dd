-- Email domains of an organization's single sign-on are proved by a DNS TXT record before they
-- sign anyone in. The primary key on the domain alone let the first org to name a domain hold it
-- without proof; now several orgs may have the same domain pending, and it is unique among
-- VERIFIED domains only (the first org to verify wins).
ALTER TABLE "sso_domains" DROP CONSTRAINT "sso_domains_pkey";
ALTER TABLE "sso_domains" ADD COLUMN "verification_token" TEXT;
ALTER TABLE "sso_domains" ADD COLUMN "verified_at" TIMESTAMP(3);
ALTER TABLE "sso_domains" ADD COLUMN "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Rows that exist today become VERIFIED: they were accepted before (the old primary key already
-- made each domain one org's only), and leaving them unverified would stop every existing
-- single sign-on at once until its admins publish a record. Their token is fresh and random so
-- that a later re-verification shows a real record.
UPDATE "sso_domains" SET "verification_token" = replace(gen_random_uuid()::text, '-', ''), "verified_at" = CURRENT_TIMESTAMP;
ALTER TABLE "sso_domains" ALTER COLUMN "verification_token" SET NOT NULL;

ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_pkey" PRIMARY KEY ("org_id", "domain");
DROP INDEX "sso_domains_org_id_idx";
CREATE INDEX "sso_domains_domain_idx" ON "sso_domains"("domain");
CREATE UNIQUE INDEX "sso_domains_verified_domain_key" ON "sso_domains"("domain") WHERE "verified_at" IS NOT NULL;
