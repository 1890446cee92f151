# syntax=docker/dockerfile:1
#
# The chess site in one container: the realtime server (uWebSockets.js) serving the built
# client, the accounts API and the AI. docs/operations.md has the build/run commands.
#
#   docker build -t chess-site .
#   docker run --init -p 3000:3000 -v chess-data:/app/data chess-site
#
# Images are built for the machine's platform (linux/amd64 or linux/arm64; uWebSockets.js
# ships native binaries for both). The runtime image is Debian 12 slim (glibc 2.36), which
# the uWebSockets.js binary needs: do not switch to Alpine (musl).
#
# Environment (all optional; the server validates them at start and exits with code 2 and a
# message naming each bad variable):
#   Server (all settings are read and validated by server/config/)
#     PORT=3000                    HTTP and WebSocket port
#     HOST=0.0.0.0                 listen address
#     NODE_ENV=production          production | development | test
#     LOG_LEVEL=info               fatal | error | warn | info | debug | trace | silent
#     LOG_FORMAT=json              json | pretty (set here: JSON lines even under `docker run -t`)
#     CLOCK_SECONDS=600            clock per side (load tests shorten it)
#     CLOCK_REPORT_SECONDS=10      a clock running without a move is reported this often (0: never)
#     FIRST_MOVE_SECONDS=30        first-move deadline; missing it aborts the game
#     GRACE_GUEST_SECONDS=40       disconnect grace for guests
#     GRACE_ACCOUNT_SECONDS=80     disconnect grace for signed-in players
#     RATE_LIMIT_MESSAGES=100      socket messages allowed per window
#     RATE_LIMIT_WINDOW_SECONDS=20
#     MAX_PAYLOAD_BYTES=8192       largest accepted socket frame
#     IDLE_TIMEOUT_SECONDS=60      socket idle timeout
#     SHUTDOWN_TIMEOUT_MS=3000     SIGTERM: exit after this long even if closing is not done
#     SERVER_SECRET                key for guest identities (>= 32 chars); generated into
#                                  DATA_DIR/server-secret when unset
#     DATA_DIR=/app/data           persistent data (the volume below)
#     DURABLE_GAMES=true           journal live games in DATA_DIR/games; resumed after a restart
#     STATIC_DIR=/app/dist/client  the built client
#     PUBLIC_URL, SITE_URL         public address of the site (links in e-mails, redirects)
#     AI_ENABLED=true, ACCOUNTS_ENABLED=true
#     METRICS_TOKEN                /metrics needs it as a bearer token (unset: this machine only)
#     INSPECT=false                XState inspector (development only)
#   Accounts
#     DATABASE_URL                 postgres://… ; unset = embedded PGlite database in DATA_DIR
#     DATABASE_SCHEMA
#     DB_QUERY_TIMEOUT_MS=5000, DB_CONNECT_TIMEOUT_MS=5000   PostgreSQL time limits
#     SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS, SMTP_FROM   outgoing mail
#     AUTH_AUTOCONFIRM, ADDITIONAL_REDIRECT_URLS
#     DEV_INBOX                    true | loopback | false (docs/operations.md, Security)
#     TRUST_PROXY                  reverse proxy addresses/CIDRs, e.g. 127.0.0.1,10.0.0.0/8
#     AUTH_EMAIL_MAX_FREQUENCY_SECONDS=60   least time between two e-mails to one user
#     AUTH_LOCKOUT_FREE_FAILURES=5, AUTH_LOCKOUT_MAX_SECONDS=900   per-account sign-in back-off
#     JWT_PRIVATE_KEY, ANON_KEY, SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_JWT_SECRET
#     ACCOUNTS_MIGRATIONS_DIR      where the SQL migrations are (set below)
#   AI
#     STOCKFISH_PATH, AI_ENGINE (wasm | native), AI_POOL_SIZE, AI_MAX_GAMES,
#     AI_REPLY_DELAY_MS (e.g. 300-1200), AI_MAX_MOVETIME_MS

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- deps: every dependency, dev tools included (vite, esbuild) -------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# ---- build: client (vite -> dist/client) and server bundle (esbuild -> dist/server/main.js) ----
FROM deps AS build
COPY . .
RUN npm run build

# ---- prod-deps: runtime dependencies only ----------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Then drop ~290 MB the server never loads: uWebSockets.js binaries for other platforms and Node
# versions (server/uws.ts loads uws_<platform>_<arch>_<abi>.node), and every Stockfish build but
# the lite single-threaded WASM one (server/ai/engine/locate.ts; the native engine comes from
# Debian below).
RUN npm ci --omit=dev --no-audit --no-fund \
    && npm cache clean --force \
    && keep_uws="uws_$(node -p 'process.platform + "_" + process.arch + "_" + process.versions.modules').node" \
    && find node_modules/uWebSockets.js -name 'uws_*.node' ! -name "$keep_uws" -delete \
    && find node_modules/stockfish/bin ! -type d ! -name 'stockfish-19-lite-single.*' -delete \
    && test -f "node_modules/uWebSockets.js/binaries/$keep_uws" \
    && test -f node_modules/stockfish/bin/stockfish-19-lite-single.js

# ---- runtime -----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime

# Debian's native Stockfish is several times faster than the WASM build in the npm package,
# which stays the fallback. Build with --build-arg NATIVE_STOCKFISH=0 to leave it out.
ARG NATIVE_STOCKFISH=1
RUN if [ "$NATIVE_STOCKFISH" = "1" ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends stockfish \
      && rm -rf /var/lib/apt/lists/*; \
    fi

# MALLOC_*: the allocator settings of server/nodeFlags.ts (glibc reads them at process start).
ENV NODE_ENV=production \
    LOG_FORMAT=json \
    MALLOC_ARENA_MAX=2 \
    MALLOC_TRIM_THRESHOLD_=131072 \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data \
    STATIC_DIR=/app/dist/client \
    ACCOUNTS_MIGRATIONS_DIR=/app/server/accounts/migrations

WORKDIR /app
# Code and dependencies stay owned by root (read-only for the server); only the data
# directory belongs to the unprivileged `node` user that runs it.
COPY package.json package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/client ./dist/client
COPY server/accounts/migrations ./server/accounts/migrations
RUN mkdir -p /app/data && chown node:node /app/data

USER node
VOLUME ["/app/data"]
EXPOSE 3000

# No curl in the slim image: Node's own fetch asks /healthz (503 while shutting down).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The server closes sockets (telling players with serverShutdown) and exits on SIGTERM.
STOPSIGNAL SIGTERM
# --no-memory-reducer --max-semi-space-size=64: server/nodeFlags.ts says why.
CMD ["node", "--no-memory-reducer", "--max-semi-space-size=64", "dist/server/main.js"]
