# One image for every Switchboard instance and for the migration job (docs/operations.md,
# docker-compose.yml, deploy/kubernetes/). Built in two stages: the first installs everything
# and builds; the second holds only the assembled server (scripts/lib/image-assembly.ts:
# Next's standalone output, our HTTP front and the migration command), a few hundred MB instead
# of the whole node_modules. tests/e2e/standalone-image.test.ts assembles the same directory,
# measures it and serves from it.
FROM node:22-bookworm-slim AS build

WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1

# Dependencies first (cached while only sources change). postinstall runs `prisma generate`,
# which needs the schema and prisma.config.ts.
COPY package.json package-lock.json prisma.config.ts ./
COPY packages ./packages
COPY prisma ./prisma
COPY scripts/no-schema-engine.sh ./scripts/no-schema-engine.sh
RUN npm ci && npm cache clean --force

COPY . .
RUN node node_modules/next/dist/bin/next build && node --import tsx scripts/assemble-image.ts /image

FROM node:22-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000
# Read-only for the server, except Next's cache (.next/cache), which it writes as it serves.
COPY --from=build /image ./
RUN mkdir -p .next/cache && chown node:node .next/cache

USER node
EXPOSE 3000

# The same server as `npm start` (scripts/serve.ts: its own HTTP front answers /mcp directly,
# Next.js the rest) is PID 1: on SIGTERM (docker stop, a pod's end) it stops accepting
# connections, lets the requests in flight finish, then exits.
# Migrations are a command of their own, run once per release before the instances start:
#   docker run --rm -e DATABASE_URL=... switchboard node db-migrate.mjs deploy
CMD ["node", "serve.mjs", "-H", "0.0.0.0", "-p", "3000"]
