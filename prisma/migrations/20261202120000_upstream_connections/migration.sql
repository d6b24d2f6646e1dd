-- Issue 24: connectors authenticate to their upstream with OAuth (per person or shared) or
-- client credentials. Secrets (the client secret, registrations, tokens) are sealed with
-- AES-256-GCM under SECRET_KEY; the settings column holds none.
ALTER TABLE "connectors" ADD COLUMN "auth" JSONB NOT NULL DEFAULT '{"type":"headers"}',
ADD COLUMN "auth_secret" TEXT,
ADD COLUMN "oauth_client_state" TEXT;

CREATE TABLE "upstream_connections" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "connector_id" TEXT NOT NULL,
    "user_id" TEXT,
    "made_by_id" TEXT,
    "connection" TEXT NOT NULL,
    "slot" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'connected',
    "scopes" JSONB NOT NULL DEFAULT '[]',
    "tokens" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "upstream_connections_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "upstream_connection_starts" (
    "state_hash" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "connector_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upstream_connection_starts_pkey" PRIMARY KEY ("state_hash")
);

CREATE INDEX "upstream_connections_org_id_idx" ON "upstream_connections"("org_id");
CREATE INDEX "upstream_connections_user_id_idx" ON "upstream_connections"("user_id");
CREATE UNIQUE INDEX "upstream_connections_connector_id_slot_key" ON "upstream_connections"("connector_id", "slot");
CREATE INDEX "upstream_connection_starts_expires_at_idx" ON "upstream_connection_starts"("expires_at");

ALTER TABLE "upstream_connections" ADD CONSTRAINT "upstream_connections_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "upstream_connections" ADD CONSTRAINT "upstream_connections_connector_id_fkey" FOREIGN KEY ("connector_id") REFERENCES "connectors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "upstream_connections" ADD CONSTRAINT "upstream_connections_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "upstream_connections" ADD CONSTRAINT "upstream_connections_made_by_id_fkey" FOREIGN KEY ("made_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "upstream_connection_starts" ADD CONSTRAINT "upstream_connection_starts_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "upstream_connection_starts" ADD CONSTRAINT "upstream_connection_starts_connector_id_fkey" FOREIGN KEY ("connector_id") REFERENCES "connectors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "upstream_connection_starts" ADD CONSTRAINT "upstream_connection_starts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
