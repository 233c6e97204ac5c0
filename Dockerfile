# syntax=docker/dockerfile:1
# The listener-operator image: one program, both roles (`run controller`, `run node`)
# and `crd`. Build:  docker build -t listener-operator:<version> .
# See docs/deploy.md ("Building the image").

ARG NODE_BUILD_IMAGE=node:24-bookworm-slim
ARG NODE_RUNTIME_IMAGE=gcr.io/distroless/nodejs24-debian12:nonroot

# Production dependencies only. --omit=dev keeps the `node` and `deno` devDependencies
# (which download whole runtimes in their install scripts) out entirely;
# --ignore-scripts: no production dependency needs an install script to work.
FROM ${NODE_BUILD_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts

# Compile TypeScript to dist/ (plus csi/*.proto, which the gRPC servers load at run
# time). --ignore-scripts again: the build only needs typescript and @types/node, and
# runs on this image's Node 24, not on the pinned `node` devDependency.
FROM ${NODE_BUILD_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build \
 && test -f dist/main.js \
 && test -f dist/csi/csi.proto \
 && test -f dist/csi/registration.proto

# Runtime: Node 24 and nothing else (no shell, no package manager), non-root (65532).
# The chart runs the node role as root: it writes into the kubelet's pod directories.
FROM ${NODE_RUNTIME_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
# package.json carries "type": "module", which makes dist/*.js ES modules.
COPY --from=deps /app/package.json ./package.json
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER 65532:65532
# Source maps (emitted by tsc) turn stack traces into TypeScript file/line positions.
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/dist/main.js"]
