// What a Node process costs before any of the operator's own code: idle RSS of a bare
// `node`, of one that has loaded what every role must (TLS for the API server, HTTP/2 for
// gRPC), of one serving grpc-js on a Unix socket, of one that has loaded Effect's runtime,
// and Effect's Schema — each a tiny entry bundled by esbuild like the operator, run with
// the node role's chart flags. The floor the node role's footprint target is measured
// against (docs/performance.md).
//
//   node --import tsx bench/footprintFloor.bench.ts [runs=5]
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { build } from "esbuild"
import { parse } from "yaml"

const repoRoot = join(import.meta.dirname, "..")
const runs = Number(process.argv[2] ?? 5)
const flags = (parse(readFileSync(join(repoRoot, "deploy", "helm", "listener-operator", "values.yaml"), "utf8")) as { node: { nodeFlags?: string[] } }).node.nodeFlags ?? []

const dir = mkdtempSync(join(repoRoot, "node_modules", ".footprint-floor-"))
const socketPath = join(dir, "grpc.sock")

const entries: Record<string, string> = {
  "bare node": "",
  "+ node:tls and node:http2 (a TLS context, an HTTP/2 server)": `
    import { createSecureContext } from "node:tls"; import { createServer } from "node:http2"
    createSecureContext({}); createServer().listen(0)`,
  "+ Effect's runtime (a fiber, a sleep)": `
    import { Effect } from "effect"; Effect.runFork(Effect.sleep("1 hour"))`,
  "+ Effect's runtime and Schema (one struct decoded)": `
    import { Effect, Schema } from "effect"
    Schema.decodeUnknownSync(Schema.Struct({ name: Schema.String }))({ name: "x" }); Effect.runFork(Effect.sleep("1 hour"))`,
  "+ @grpc/grpc-js (a server bound on a Unix socket, as the node role's CSI endpoint)": `
    import { Server, ServerCredentials } from "@grpc/grpc-js"
    new Server({ "grpc.enable_channelz": 0 }).bindAsync(${JSON.stringify(`unix://${socketPath}`)}, ServerCredentials.createInsecure(), () => {})`,
  "all of the above": `
    import { createSecureContext } from "node:tls"; import { Server, ServerCredentials } from "@grpc/grpc-js"; import { Effect, Schema } from "effect"
    createSecureContext({})
    new Server({ "grpc.enable_channelz": 0 }).bindAsync(${JSON.stringify(`unix://${socketPath}`)}, ServerCredentials.createInsecure(), () => {})
    Schema.decodeUnknownSync(Schema.Struct({ name: Schema.String }))({ name: "x" }); Effect.runFork(Effect.sleep("1 hour"))`,
  // Not loaded by the roles: the price of @kubernetes/client-node's generated API, which
  // our own HTTP client (adapters/http/) replaces (docs/architecture.md).
  "for comparison, bare node + @kubernetes/client-node's KubeConfig and generated CoreV1Api": `
    import { CoreV1Api, KubeConfig } from "@kubernetes/client-node"
    const config = new KubeConfig()
    config.loadFromOptions({
      clusters: [{ name: "c", server: "https://127.0.0.1:1", skipTLSVerify: true }],
      users: [{ name: "u", token: "x" }],
      contexts: [{ name: "c", cluster: "c", user: "u" }],
      currentContext: "c"
    })
    config.makeApiClient(CoreV1Api)`
}

// grpc-js is CommonJS: an ES-module bundle needs a `require`, as package.json's bundle script gives it.
const REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const rssMiB = (pid: number): number => Number(/VmRSS:\s+(\d+)/u.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024

try {
  console.log(`# idle RSS (3 s after start), node ${process.version} ${flags.join(" ")}, ${runs} runs, min / median / max`)
  for (const [label, source] of Object.entries(entries)) {
    const entry = join(dir, "entry.ts")
    writeFileSync(entry, `${source}\nsetTimeout(() => {}, 3_600_000)\n`)
    const bundle = join(dir, "entry.mjs")
    // As the operator's bundle: grpc-js loads proto-loader only for channelz and ORCA.
    await build({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", target: "node24", outfile: bundle, logLevel: "warning", external: ["@grpc/proto-loader"], banner: { js: REQUIRE_BANNER } })
    const values: number[] = []
    for (let i = 0; i < runs; i++) {
      const child = spawn(process.execPath, [...flags, bundle], { stdio: "ignore" })
      await sleep(3000)
      values.push(rssMiB(child.pid!))
      child.kill("SIGKILL")
      rmSync(socketPath, { force: true })
    }
    values.sort((a, b) => a - b)
    const bytes = readFileSync(bundle).length
    console.log(`${label}: ${values[0]!.toFixed(1)} / ${values[Math.floor(values.length / 2)]!.toFixed(1)} / ${values.at(-1)!.toFixed(1)} MiB (bundle ${(bytes / 1024).toFixed(0)} KiB)`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
