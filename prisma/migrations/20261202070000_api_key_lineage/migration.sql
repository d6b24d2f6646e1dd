-- Which key issued a key (revoking a key now revokes the keys it issued, and theirs), and the
-- highest organization role a key acts with (a key an admin issued for someone stays an admin's
-- key when that person is made owner). Keys that exist today have neither: no known issuer, and
-- they keep acting with their user's role.
ALTER TABLE "api_keys" ADD COLUMN "issued_by_key_id" TEXT;
ALTER TABLE "api_keys" ADD COLUMN "max_role" "OrgRole";
CREATE INDEX "api_keys_issued_by_key_id_idx" ON "api_keys"("issued_by_key_id");
