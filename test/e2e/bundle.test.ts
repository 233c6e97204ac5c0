// The compiled command line (dist/bin, built by npm run build before this suite) loads per
// role only what that role needs: what `run node` loads — the entry, the CLI, the node
// role, the HTTP Kubernetes client and the probe server, with all their static imports —
// holds nothing of the controller, the demos, the CRD generator, the tests, or
// @kubernetes/client-node (its generated API model is ~770 modules; kubeconfigs are read
// without it unless a plugin needs it), no .proto parser (CSI is served by grpc-js with
// codecs generated ahead of time: neither @grpc/proto-loader nor protobufjs's reflection
// runtime), no YAML parser (loaded only for a YAML kubeconfig) and no HTTP framework or
// WebSocket stack (the probes are plain node:http). Measured effect: docs/performance.md.
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { cpSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { test } from "node:test"
import { withTempDir } from "../unit/withTempDir.ts"

interface Output {
  readonly imports?: ReadonlyArray<{ readonly path: string; readonly kind: string; readonly external?: boolean }>
  readonly inputs?: Readonly<Record<string, unknown>>
}

const dist = join(import.meta.dirname, "..", "..", "dist", "bin")
const meta = JSON.parse(readFileSync(join(dist, "..", "meta.json"), "utf8")) as { outputs: Record<string, Output> }
const outputs = new Map(Object.entries(meta.outputs).map(([path, output]) => [path.replace(/^.*dist\/bin\//u, ""), output]))
const chunk = (prefix: string): string => {
  const found = [...outputs.keys()].find((name) => name.startsWith(prefix) && name.endsWith(".js"))
  assert.ok(found !== undefined, `no ${prefix}*.js in dist/bin`)
  return found
}

/**
 * What parsing .proto files at start would load: proto-loader (esbuild leaves it external:
 * grpc-js requires it only for channelz and ORCA, which we do not serve) and protobufjs
 * beyond its minimal runtime, which the generated codecs need.
 */
const NO_PROTO_PARSER = [
  "node_modules/@grpc/proto-loader/",
  "node_modules/protobufjs/src/parse.js",
  "node_modules/protobufjs/src/root.js",
  "node_modules/protobufjs/src/type.js",
  "node_modules/protobufjs/ext/"
]

/** Every source file in the static import closure of these chunks (dynamic imports excluded: loaded on demand). */
const loadedBy = (entries: ReadonlyArray<string>): ReadonlySet<string> => {
  const seen = new Set<string>()
  const queue = [...entries]
  while (queue.length > 0) {
    const name = queue.pop()!
    if (seen.has(name) || !outputs.has(name)) continue
    seen.add(name)
    for (const imported of outputs.get(name)!.imports ?? []) {
      if (imported.external !== true && imported.kind !== "dynamic-import") queue.push(imported.path.replace(/^.*dist\/bin\//u, ""))
    }
  }
  return new Set([...seen].flatMap((name) => Object.keys(outputs.get(name)!.inputs ?? {})))
}

test("`run node` loads nothing of the controller, the demos, the CRD generator, the tests or client-node", () => {
  const loaded = loadedBy(["main.js", chunk("cli-"), chunk("nodeRoleLayer-"), chunk("KubeApiHttp-"), chunk("probes-")])
  assert.ok([...loaded].some((file) => file.endsWith("csi/nodeService.ts")), "sanity: the node service is loaded")
  assert.ok([...loaded].some((file) => file.includes("node_modules/@grpc/grpc-js/")), "sanity: CSI is served by grpc-js")
  assert.ok([...loaded].some((file) => file.endsWith("k8s/runtime/watcher.ts")), "sanity: the node role's caches are fed by watches")
  for (
    const forbidden of [
      "k8s/listenerController.ts",
      // The node role keeps watch-fed caches (k8s/nodeCaches.ts: watcher and store), but no
      // reconcile loop, work queue or leader election.
      "k8s/runtime/controller.ts",
      "k8s/runtime/workQueue.ts",
      "k8s/runtime/leaderElection.ts",
      "k8s/reconcilers.ts",
      "k8s/roles/controllerRole.ts",
      "k8s/composition/controllerRoleLayer.ts",
      "k8s/crds.ts",
      "demo/",
      "test/",
      "node_modules/@kubernetes/client-node/",
      "node_modules/undici/",
      ...NO_PROTO_PARSER,
      "node_modules/yaml/",
      "node_modules/ws/",
      "NodeHttpServer"
    ]
  ) {
    const hits = [...loaded].filter((file) => file.includes(forbidden))
    assert.deepEqual(hits, [], `run node must not load ${forbidden}`)
  }
})

test("the bundle leaves out what no path of ours runs: undici, client-node's index, Effect's HTTP client (docs/images.md)", () => {
  const bundled = new Set([...outputs.values()].flatMap((output) => Object.keys(output.inputs ?? {})))
  for (const left of ["node_modules/undici/", "node_modules/@kubernetes/client-node/dist/index.js", "node_modules/@effect/platform-node/dist/NodeHttpClient.js"]) {
    assert.deepEqual([...bundled].filter((file) => file.includes(left)), [], `the bundle must not hold ${left}`)
  }
  assert.ok(bundled.has("node_modules/@kubernetes/client-node/dist/config.js"), "KubeConfig itself is bundled")
})

test("`--help` loads no role, no Kubernetes client and no gRPC", () => {
  const loaded = loadedBy(["main.js", chunk("cli-")])
  for (const forbidden of ["k8s/roles/", "adapters/KubeApiHttp.ts", "node_modules/@grpc/", "node_modules/@kubernetes/"]) {
    assert.deepEqual([...loaded].filter((file) => file.includes(forbidden)), [], `--help must not load ${forbidden}`)
  }
})

test("`run controller` serves CSI without a .proto parser and probes without an HTTP framework", () => {
  const loaded = loadedBy(["main.js", chunk("cli-"), chunk("controllerRoleLayer-"), chunk("KubeApiHttp-"), chunk("probes-")])
  assert.ok([...loaded].some((file) => file.endsWith("csi/controllerService.ts")), "sanity: the controller service is loaded")
  for (const forbidden of [...NO_PROTO_PARSER, "node_modules/@kubernetes/client-node/", "node_modules/ws/", "NodeHttpServer", "demo/", "test/"]) {
    assert.deepEqual([...loaded].filter((file) => file.includes(forbidden)), [], `run controller must not load ${forbidden}`)
  }
})

test("the compiled node role, laid out as in the image (no node_modules), reads a YAML, a JSON and an exec-plugin kubeconfig (each loaded on demand) and serves CSI", () =>
  withTempDir("bundle-kubeconfig-", async (dir) => {
    // The image ships dist/bin and package.json only: a module the bundle left external
    // (proto-loader) and loaded at start would fail here.
    const image = join(dir, "app")
    cpSync(dist, join(image, "dist", "bin"), { recursive: true })
    writeFileSync(join(image, "package.json"), JSON.stringify({ type: "module" }))
    const config = {
      apiVersion: "v1",
      kind: "Config",
      "current-context": "c",
      contexts: [{ name: "c", context: { cluster: "c", user: "u" } }],
      clusters: [{ name: "c", cluster: { server: "https://127.0.0.1:1", "insecure-skip-tls-verify": true } }],
      users: [{ name: "u", user: { token: "x" } }]
    }
    const yaml = ["apiVersion: v1", "kind: Config", "current-context: c", "contexts: [{name: c, context: {cluster: c, user: u}}]",
      "clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\", insecure-skip-tls-verify: true}}]", "users: [{name: u, user: {token: x}}]", ""].join("\n")
    // An exec plugin is read by client-node's KubeConfig (kubeconfigLight.ts declines it): the
    // bundle's own copy of it, without undici (aliased away), must load and apply it.
    const credential = { apiVersion: "client.authentication.k8s.io/v1", kind: "ExecCredential", status: { token: "x" } }
    const exec = { ...config, users: [{ name: "u", user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command: process.execPath, args: ["-e", `console.log(${JSON.stringify(JSON.stringify(credential))})`], interactiveMode: "Never" } } }] }
    for (const [name, text] of [["kubeconfig.yaml", yaml], ["kubeconfig.json", JSON.stringify(config)], ["kubeconfig-exec.json", JSON.stringify(exec)]] as const) {
      writeFileSync(join(dir, name), text)
      const run = spawnSync(process.execPath, [join(image, "dist", "bin", "main.js"), "run", "node", "--node-name", "n", "--metrics-port", "0", "--log-format", "text"], {
        encoding: "utf8",
        timeout: 6000,
        env: { ...process.env, KUBECONFIG: join(dir, name), CSI_ENDPOINT: join(dir, `${name}.sock`) }
      })
      const output = run.stdout + run.stderr
      assert.doesNotMatch(output, /cannot load kubeconfig/u, `${name}: ${output}`)
      assert.match(output, /cannot be reached yet: .*ECONNREFUSED 127\.0\.0\.1:1/u, `${name}: the client was made from it`)
      assert.match(output, /CSI endpoint ready/u, `${name}: ${output}`)
    }
  }))
