# One image recipe for the four services: `--build-arg APP=orchestrator|tool-worker|skill-service|wasm-runner`.
# Stage 1 installs and builds the whole workspace (Prisma client, WebAssembly tools, TypeScript, bundles);
# stage 2 keeps the production dependencies and the built output and runs as the unprivileged `node` user.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@12
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY apps/ apps/
COPY libs/ libs/
COPY tools-src/ tools-src/
COPY wit/ wit/
COPY registry/ registry/
COPY skills/ skills/
COPY tsconfig.base.json tsconfig.json nx.json ./
RUN pnpm install --frozen-lockfile
RUN pnpm run build

FROM node:20-bookworm-slim AS runtime
ARG APP
ENV NODE_ENV=production APP=${APP}
WORKDIR /app
# The wasm-runner's shell tool needs git and the usual utilities in its workspace, and bubblewrap to
# sandbox every command and stdio MCP server (prlimit comes with util-linux, already in the image).
RUN if [ "$APP" = "wasm-runner" ]; then apt-get update && apt-get install -y --no-install-recommends git ca-certificates curl bubblewrap && rm -rf /var/lib/apt/lists/*; fi
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /var/lib/talon && chown node:node /var/lib/talon
USER node
ENV TALON_STATE_DIR=/var/lib/talon TALON_WORKSPACE_DIR=/var/lib/talon/workspace
# The bundle `pnpm run build` made (one module: the service starts about a second sooner).
CMD ["sh", "-c", "exec node apps/$APP/dist/bundle/main.mjs"]
