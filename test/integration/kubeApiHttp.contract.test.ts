// The real KubeApi adapter against the real API server of test/envtest, with the controller
// manager (its garbage collector serves the cascade cases). First the adapter-agnostic
// contract cases (the same ones the in-memory adapter passes: the real server is the
// reference), then what only the real adapter has: sockets, request counts, transport and
// authentication failures.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync } from "node:fs"
import { KubeConfig } from "@kubernetes/client-node"
import { Effect, Exit, Fiber, ManagedRuntime, Stream } from "effect"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { Kinds } from "../../domain/kinds.ts"
import { KubeApi, KubeApiError } from "../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import { crdManifests } from "../../k8s/crds.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"
import { freePort } from "../envtest/ports.ts"
import { event, kubeApiContractCases } from "../unit/adapters/kubeApiContractCases.ts"

let plane: ControlPlane | undefined
let runtime: ManagedRuntime.ManagedRuntime<KubeApi | KubeApiHttp, unknown> | undefined

type Api = KubeApi["Service"]

const run = <A, E>(f: (api: Api) => Effect.Effect<A, E>): Promise<A> => {
  if (runtime === undefined) throw new Error("control plane not started")
  return runtime.runPromise(KubeApi.use(f))
}

/** The KubeApiError an operation fails with (the test fails if it succeeds). */
const failure = async (f: (api: Api) => Effect.Effect<unknown, KubeApiError>): Promise<KubeApiError> => {
  const error = await run((api) => Effect.flip(f(api)))
  assert.ok(error instanceof KubeApiError, "expected a KubeApiError")
  return error
}

const stats = () => runtime!.runPromise(KubeApiHttp.use((h) => h.stats))
const resetStats = () => runtime!.runPromise(KubeApiHttp.use((h) => h.resetStats))
const sockets = () => runtime!.runPromise(KubeApiHttp.use((h) => h.sockets))

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Poll until `check` passes (it throws while not yet), at most `timeoutMs`. */
const eventually = async (check: () => Promise<void>, timeoutMs = 30_000): Promise<void> => {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (performance.now() > deadline) throw error
      await sleep(250)
    }
  }
}

/** The cases use Listeners: install the CRDs through the adapter and wait until they are served. */
const installCrds = async (): Promise<void> => {
  for (const crd of crdManifests()) {
    await run((api) => api.apply(Kinds.CustomResourceDefinition, { ...crd }, { fieldManager: "contract-test", force: true }))
  }
  await eventually(async () => {
    await run((api) => api.list(Kinds.Listener, { namespace: "default" }))
  })
}

before(async () => {
  plane = await startControlPlane({ controllerManager: true })
  runtime = ManagedRuntime.make(KubeApiHttp.layerFromKubeconfigFile(plane.kubeconfigPath))
  await installCrds()
}, { timeout: 180_000 })

after(async () => {
  await runtime?.dispose()
  await plane?.stop()
})

/**
 * The etcd client URL of this plane, read from etcd's command line (the harness does not
 * expose it yet).
 */
const etcdUrlOf = (p: ControlPlane): string => {
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/u.test(entry))) {
    let args: Array<string>
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
    } catch {
      continue // the process ended meanwhile
    }
    if (!args.some((a) => a.startsWith(`--data-dir=${p.dir}/`))) continue
    const flag = args.find((a) => a.startsWith("--listen-client-urls="))
    if (flag !== undefined) return flag.slice("--listen-client-urls=".length).split(",")[0]!
  }
  throw new Error(`no etcd process of the control plane in ${p.dir}`)
}

/** The revision etcd is at now (every answer's header carries it). */
const etcdRevision = async (etcdUrl: string): Promise<string> => {
  const response = await fetch(`${etcdUrl}/v3/kv/range`, { method: "POST", body: JSON.stringify({ key: btoa("/"), count_only: true }) })
  if (response.status !== 200) throw new Error(`etcd range: ${response.status} ${await response.text()}`)
  const { header } = (await response.json()) as { header?: { revision?: string } }
  if (header?.revision === undefined) throw new Error("etcd range answer without a revision")
  return header.revision
}

/** Compacts this plane's etcd at `revision` (default: its current one): older revisions are gone. */
const compactEtcd = async (p: ControlPlane, revision?: string): Promise<void> => {
  const etcdUrl = etcdUrlOf(p)
  const compaction = await fetch(`${etcdUrl}/v3/kv/compaction`, {
    method: "POST",
    body: JSON.stringify({ revision: revision ?? await etcdRevision(etcdUrl), physical: true })
  })
  if (compaction.status !== 200) throw new Error(`etcd compaction: ${compaction.status} ${await compaction.text()}`)
}

kubeApiContractCases("real", async () => {
  if (runtime === undefined) throw new Error("control plane not started")
  const api = await runtime.runPromise(KubeApi.use(Effect.succeed))
  return { api, cleanup: () => Promise.resolve(), compact: () => compactEtcd(plane!) }
}, { eventuallyTimeoutMs: 30_000, pollIntervalMs: 200, watchTimeoutMs: 15_000, caseTimeoutMs: 90_000 })

const namespace = (name: string) =>
  run((api) => api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name } }))

const configMap = (ns: string, name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: ns },
  data
})

// A watch-cached kind (ConfigMap) keeps its history since the API server started, even
// across etcd compaction, so a short-lived server never answers Gone for it. Events are not
// watch-cached: their watches read etcd, and etcd forgets compacted revisions.
test("a watch from a compacted resourceVersion fails with Gone; relist and watch again", async () => {
  await namespace("gone")
  const first = await run((api) => api.create(Kinds.Event, event("gone", "e0")))
  // two more writes: etcd keeps the compaction revision itself, so the revision after e0
  // must lie strictly below it
  await run((api) => api.create(Kinds.Event, event("gone", "e1")))
  await run((api) => api.create(Kinds.Event, event("gone", "e2")))
  const listed = await run((api) => api.list(Kinds.Event, { namespace: "gone" }))
  assert.deepEqual(listed.items.map((o) => o.metadata.name).sort(), ["e0", "e1", "e2"])
  await compactEtcd(plane!, listed.resourceVersion)

  const error = await failure((api) =>
    Stream.runDrain(api.watch(Kinds.Event, { namespace: "gone", resourceVersion: first.metadata.resourceVersion!, timeoutSeconds: 5 })))
  assert.equal(error.reason, "Gone")
  assert.equal(error.status, 410)
  assert.deepEqual([error.verb, error.kind, error.namespace], ["watch", "Event", "gone"])
  assert.match(error.message, /too old/)

  // the informer's way out: list again and watch from the new resourceVersion
  const relisted = await run((api) => api.list(Kinds.Event, { namespace: "gone" }))
  const next = run((api) => Stream.runCollect(Stream.take(api.watch(Kinds.Event, { namespace: "gone", resourceVersion: relisted.resourceVersion }), 1)))
  // delivered however late the watch starts: it resumes from the list's resourceVersion
  await run((api) => api.create(Kinds.Event, event("gone", "e3")))
  assert.deepEqual((await next).map((e) => `${e.type} ${e.object.metadata.name}`), ["ADDED e3"])
})

test("interrupting a watch aborts its request and frees its socket", async () => {
  await namespace("abort")
  // select by label: the controller manager adds its own ConfigMap to every namespace
  const selected = { namespace: "abort", labelSelector: "case=abort" }
  const before = await sockets()
  const listed = await run((api) => api.list(Kinds.ConfigMap, selected))
  const watch = (api: Api) => api.watch(Kinds.ConfigMap, { ...selected, resourceVersion: listed.resourceVersion })
  const fiber = runtime!.runFork(KubeApi.use((api) => Stream.runDrain(watch(api))))
  await eventually(async () => assert.equal((await sockets()).active, before.active + 1), 10_000)
  await runtime!.runPromise(Fiber.interrupt(fiber))
  const exit = await runtime!.runPromise(Fiber.await(fiber))
  assert.ok(Exit.isFailure(exit), "the watch was interrupted")
  await eventually(async () => assert.equal((await sockets()).active, before.active), 5_000)
  // the interrupted watch's socket is destroyed, not parked for reuse
  assert.ok((await sockets()).idle <= before.idle + 1)

  // ending consumption early (take) also closes the request
  const started = run((api) => Stream.runCollect(Stream.take(watch(api), 1)))
  await eventually(async () => assert.equal((await sockets()).active, before.active + 1), 10_000)
  await run((api) => api.create(Kinds.ConfigMap, { ...configMap("abort", "one"), metadata: { name: "one", namespace: "abort", labels: { case: "abort" } } }))
  assert.deepEqual((await started).map((e) => `${e.type} ${e.object.metadata.name}`), ["ADDED one"])
  await eventually(async () => assert.equal((await sockets()).active, before.active), 5_000)
})

test("one request per call, counted client-side and at the API server; the user agent names the operator", async () => {
  await namespace("count")
  const requestTotal = async (verb: string, resource: string): Promise<number> => {
    const text = await plane!.metrics()
    let total = 0
    for (const line of text.split("\n")) {
      if (!line.startsWith("apiserver_request_total{")) continue
      if (line.includes(`verb="${verb}"`) && line.includes(`resource="${resource}"`) && line.includes(`scope="resource"`)) {
        total += Number(line.slice(line.lastIndexOf(" ") + 1))
      }
    }
    return total
  }
  const serverBefore = { apply: await requestTotal("APPLY", "configmaps"), get: await requestTotal("GET", "configmaps") }
  await resetStats()
  const listed = await run((api) =>
    Effect.gen(function*() {
      for (let i = 0; i < 5; i++) {
        yield* api.apply(Kinds.ConfigMap, configMap("count", `c${i}`, { i: String(i) }), { fieldManager: "counter" })
      }
      yield* api.get(Kinds.ConfigMap, { namespace: "count", name: "c0" })
      yield* api.get(Kinds.ConfigMap, { namespace: "count", name: "c1" })
      const listed = yield* api.list(Kinds.ConfigMap, { namespace: "count" })
      yield* api.patchStatus(Kinds.Namespace, { name: "count" }, { status: {} }, { type: "merge" })
      yield* Effect.flip(api.get(Kinds.ConfigMap, { namespace: "count", name: "missing" }))
      return listed
    }))
  // the API omits apiVersion/kind on items of built-in kinds; the adapter puts them back
  assert.ok(listed.items.length >= 5 && listed.items.every((o) => o.apiVersion === "v1" && o.kind === "ConfigMap"))
  const client = await stats()
  assert.deepEqual(client.byVerbResource, {
    "apply configmaps": 5,
    "get configmaps": 3,
    "list configmaps": 1,
    "patch namespaces/status": 1
  })
  assert.deepEqual(client.byVerb, { apply: 5, get: 3, list: 1, patch: 1 })
  assert.equal(client.total, 10)
  await eventually(async () => {
    assert.equal((await requestTotal("APPLY", "configmaps")) - serverBefore.apply, 5)
    assert.equal((await requestTotal("GET", "configmaps")) - serverBefore.get, 3)
  }, 10_000)

  // without a fieldManager the API server names the manager after the User-Agent
  const created = await run((api) => api.create(Kinds.ConfigMap, configMap("count", "ua", { k: "v" })))
  assert.equal(created.metadata.managedFields?.[0]?.manager, "listener-operator")
})

const withConfig = <A, E>(kc: KubeConfig, f: (api: Api) => Effect.Effect<A, E>): Promise<A> =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(KubeApiHttp.make(kc), ({ api }) => f(api))))

const withConfigFailure = async (kc: KubeConfig, f: (api: Api) => Effect.Effect<unknown, KubeApiError>): Promise<KubeApiError> => {
  const error = await withConfig(kc, (api) => Effect.flip(f(api)))
  assert.ok(error instanceof KubeApiError)
  return error
}

test("transport and authentication failures: refused connection, Unauthorized, Forbidden", async () => {
  const admin = new KubeConfig()
  admin.loadFromFile(plane!.kubeconfigPath)
  const cluster = admin.getCurrentCluster()!

  const closedPort = await freePort()
  const refusedConfig = new KubeConfig()
  refusedConfig.loadFromClusterAndUser({ ...cluster, server: `https://127.0.0.1:${closedPort}` }, admin.getCurrentUser()!)
  const refused = await withConfigFailure(refusedConfig, (api) => api.get(Kinds.Namespace, { name: "default" }))
  assert.equal(refused.reason, "Unavailable")
  assert.equal((refused.cause as { code?: string }).code, "ECONNREFUSED")
  assert.deepEqual([refused.verb, refused.kind, refused.objectName], ["get", "Namespace", "default"])

  const bogusToken = new KubeConfig()
  bogusToken.loadFromClusterAndUser(cluster, { name: "bogus", token: "not-a-token" })
  const unauthorized = await withConfigFailure(bogusToken, (api) => api.list(Kinds.Namespace))
  assert.equal(unauthorized.reason, "Unauthorized")
  assert.equal(unauthorized.status, 401)

  const impersonating = new KubeConfig()
  impersonating.loadFromClusterAndUser(cluster, { ...admin.getCurrentUser()!, impersonateUser: "nobody" })
  const forbidden = await withConfigFailure(impersonating, (api) => api.list(Kinds.ConfigMap, { namespace: "default" }))
  assert.equal(forbidden.reason, "Forbidden")
  assert.match(forbidden.message, /nobody/)

  const untrusted = new KubeConfig()
  untrusted.loadFromClusterAndUser({ name: "no-ca", server: cluster.server, skipTLSVerify: false }, admin.getCurrentUser()!)
  const tls = await withConfigFailure(untrusted, (api) => api.get(Kinds.Namespace, { name: "default" }))
  assert.equal(tls.reason, "Unavailable")
  assert.ok(tls.cause instanceof Error)

  // the admin configuration itself works through the same path
  const ns = await withConfig(admin, (api) => api.get(Kinds.Namespace, { name: "default" }))
  assert.equal(ns.metadata.name, "default")
})

test("arguments the API cannot take are refused before any request", async () => {
  await resetStats()
  const noNamespace = await failure((api) => api.get(Kinds.ConfigMap, { name: "x" }))
  assert.equal(noNamespace.reason, "BadRequest")
  assert.equal(noNamespace.causes?.[0]?.field, "metadata.namespace")
  const noName = await failure((api) => api.apply(Kinds.ConfigMap, { metadata: { namespace: "default" } }, { fieldManager: "x" }))
  assert.equal(noName.reason, "BadRequest")
  assert.equal(noName.causes?.[0]?.field, "metadata.name")
  assert.equal((await stats()).total, 0)
})
