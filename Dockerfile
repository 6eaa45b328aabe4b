# syntax=docker/dockerfile:1
# Tideline: one image, one process (`node live-server/src/main.ts`), serving the API, the live
# WebSocket and the built client on port 3000. Node 24 runs the server's TypeScript directly.
#
#   docker build -t tideline .
#   docker run -p 3000:3000 -v tideline-data:/app/data tideline
#
# Without DATABASE_URL the embedded database lives in the /app/data volume (with the generated
# secret key and uploads); see docker-compose.yml for PostgreSQL + Redis + S3 and two instances.

ARG NODE_IMAGE=node:24-bookworm-slim

# --- all dependencies (dev included), for the client build --------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY live-server/package.json live-server/
COPY client/package.json client/
RUN npm install --no-audit --no-fund

# --- client build -------------------------------------------------------------------------
FROM deps AS build
COPY . .
RUN npm run build

# --- production dependencies only ---------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY live-server/package.json live-server/
COPY client/package.json client/
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime ------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data
WORKDIR /app
# Manifests and node_modules (workspace links included) from the production install.
COPY --from=prod-deps /app ./
COPY shared/src shared/src
COPY live-server/src live-server/src
COPY live-server/drizzle live-server/drizzle
COPY --from=build /app/client/dist client/dist
# The migrated embedded database a fresh data folder starts from (npm run build made it).
COPY --from=build /app/live-server/dist live-server/dist
# The image's `node` user (uid 1000) owns only the data folder.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/instances/').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The Node flags of `npm run serve` (live-server/src/server-node-flags.ts says why).
CMD ["node", "--max-semi-space-size=16", "live-server/src/main.ts"]
