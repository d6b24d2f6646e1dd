-- What a user allowed an OAuth client to reach (issue 13, consent).
CREATE TABLE "oauth_grants" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "server_id" TEXT,
    "server_ids" TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "oauth_grants_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "oauth_grants_client_id_user_id_resource_key" ON "oauth_grants"("client_id", "user_id", "resource");
CREATE INDEX "oauth_grants_org_id_idx" ON "oauth_grants"("org_id");
CREATE INDEX "oauth_grants_user_id_idx" ON "oauth_grants"("user_id");

ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("client_id") ON DELETE CASCADE ON UPDATE CASCADE;
