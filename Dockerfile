# syntax=docker/dockerfile:1
# The listener-operator image: one program, both roles (`run controller`, `run node`)
# and `crd`. Build:  docker build -t listener-operator:<version> .
# See docs/deploy.md ("Building the image").

ARG NODE_BUILD_IMAGE=node:24-bookworm-slim
ARG NODE_RUNTIME_IMAGE=gcr.io/distroless/nodejs24-debian12:nonroot

# Compile TypeScript to dist/ (the library) and bundle the command line into dist/bin/ (one
# tree-shaken ESM bundle with a chunk per role and source maps; the protobuf code is
# generated ahead of time, so nothing else is read at run time). --ignore-scripts: the build only needs typescript,
# esbuild and @types/node, and runs on this image's Node 24, not on the pinned `node`
# devDependency.
FROM ${NODE_BUILD_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build \
 && test -f dist/bin/main.js

# Runtime: Node 24 and nothing else (no shell, no package manager), non-root (65532). The
# bundle needs no node_modules. The chart runs the node role as root: it writes into the
# kubelet's pod directories.
FROM ${NODE_RUNTIME_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
# package.json carries "type": "module", which makes the bundle's .js files ES modules.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist/bin ./dist/bin
USER 65532:65532
# Source maps ship next to the bundle; NODE_OPTIONS=--enable-source-maps (chart value
# <role>.nodeOptions) maps stack traces to TypeScript, at ~30 MB of memory per process.
# The chart puts V8 flags between the Node binary and the script of this ENTRYPOINT.
ENTRYPOINT ["/nodejs/bin/node", "/app/dist/bin/main.js"]
