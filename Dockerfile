# One image for every Switchboard instance (and the one-shot migration job). See the
# "Scale out" section of README.md and docker-compose.yml.
FROM node:20-bookworm-slim

WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1

# Dependencies first (cached while only sources change). postinstall runs `prisma generate`,
# which needs the schema and prisma.config.ts. Dev dependencies stay: the migration job
# (`npm run db:migrate -- deploy`) runs TypeScript through tsx.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts/no-schema-engine.sh ./scripts/no-schema-engine.sh
RUN npm ci && npm cache clean --force

COPY . .
RUN node node_modules/next/dist/bin/next build && chown -R node:node /app

USER node
ENV NODE_ENV=production PORT=3000
EXPOSE 3000

# The app's server (Next.js behind node:http, scripts/serve.ts) is PID 1: on SIGTERM (docker
# stop) it stops accepting connections, lets the requests in flight finish, then exits.
# Migrations are the migrate service's job, not ours.
CMD ["node", "--import", "tsx", "scripts/serve.ts", "-H", "0.0.0.0", "-p", "3000"]
