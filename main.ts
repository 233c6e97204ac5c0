#!/usr/bin/env node
/**
 * The entry point. It only checks the runtime before loading anything else: on an older
 * Node.js the dependencies fail deep inside their own code (undici on Node 20), so the
 * check must run before any import of them. The commands live in cli.ts.
 */
const REQUIRED_NODE_MAJOR = 24

const runningOnDeno = "Deno" in globalThis
const nodeMajor = Number(process.versions.node.split(".")[0])
if (!runningOnDeno && !(nodeMajor >= REQUIRED_NODE_MAJOR)) {
  process.stderr.write(
    `listener-operator needs Node.js ${REQUIRED_NODE_MAJOR} or newer; this is Node.js v${process.versions.node} (${process.execPath}). ` +
      `In this repository, npm scripts run the pinned Node 24 (node_modules/.bin/node).\n`
  )
  process.exit(2)
}

await import("./cli.ts")

export {}
