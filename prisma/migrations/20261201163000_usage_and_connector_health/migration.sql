-- Usage aggregate (hourly rows) and connector health (issue 14 points 1–2).

-- CreateTable
CREATE TABLE "usage_buckets" (
    "org_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "connector_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "latency_sum_ms" BIGINT NOT NULL DEFAULT 0,
    "latency_buckets" INTEGER[],
    "last_error" TEXT,
    "last_error_at" TIMESTAMP(3),

    CONSTRAINT "usage_buckets_pkey" PRIMARY KEY ("org_id","hour","workspace_id","server_id","connector_id","tool","user_id")
);

-- CreateTable
CREATE TABLE "connector_health" (
    "connector_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "probe_method" TEXT,
    "probe_path" TEXT,
    "last_success_at" TIMESTAMP(3),
    "last_latency_ms" INTEGER,
    "last_failure_at" TIMESTAMP(3),
    "last_failure_message" TEXT,
    "last_test_at" TIMESTAMP(3),
    "last_test_ok" BOOLEAN,
    "last_test_message" TEXT,

    CONSTRAINT "connector_health_pkey" PRIMARY KEY ("connector_id")
);

-- CreateIndex
CREATE INDEX "usage_buckets_workspace_id_hour_idx" ON "usage_buckets"("workspace_id", "hour");

-- CreateIndex
CREATE INDEX "usage_buckets_hour_idx" ON "usage_buckets"("hour");

-- CreateIndex
CREATE INDEX "connector_health_org_id_idx" ON "connector_health"("org_id");

-- AddForeignKey
ALTER TABLE "usage_buckets" ADD CONSTRAINT "usage_buckets_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connector_health" ADD CONSTRAINT "connector_health_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connector_health" ADD CONSTRAINT "connector_health_connector_id_fkey" FOREIGN KEY ("connector_id") REFERENCES "connectors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
