-- Single sign-on by OIDC per organization (issue 13 point 6).
CREATE TABLE "sso_connections" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_encrypted" TEXT NOT NULL,
    "join_new_users" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "sso_connections_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sso_connections_org_id_key" ON "sso_connections"("org_id");
ALTER TABLE "sso_connections" ADD CONSTRAINT "sso_connections_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "sso_domains" (
    "domain" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "connection_id" TEXT NOT NULL,
    CONSTRAINT "sso_domains_pkey" PRIMARY KEY ("domain")
);
CREATE INDEX "sso_domains_org_id_idx" ON "sso_domains"("org_id");
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "sso_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
