# The service as a container image (docs/deployment.md). Two stages: the production
# dependencies are installed from the lockfile in the first, and only they and the sources go
# into the runtime image, which runs as the unprivileged `node` user.

FROM node:24-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production BRIDGE_HOST=0.0.0.0 BRIDGE_PORT=8080 BRIDGE_DATA_DIR=/home/node/data BRIDGE_LOG_FORMAT=json
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY src ./src
COPY clients/typescript/package.json ./clients/typescript/package.json
COPY clients/typescript/src ./clients/typescript/src
USER node
# The embedded database's directory, owned by `node` so a fresh volume mounted here is writable.
RUN mkdir -p /home/node/data
VOLUME /home/node/data
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.BRIDGE_PORT || 8080) + (process.env.BRIDGE_BASE_PATH || '') + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The flags of `npm start` (docs/operations.md, "Memory"), without npm in between, so SIGTERM
# reaches the service and it stops gracefully.
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=100", "src/cli/main.ts", "start"]
