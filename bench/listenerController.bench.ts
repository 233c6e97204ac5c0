/**
 * Benchmark: the Listener controller against the real control plane (test/envtest).
 *
 *   node --expose-gc --import tsx bench/listenerController.bench.ts [count=1000] [concurrency=4]
 *
 * (a) burst: `count` Listeners of a ClusterIP class created at once → requests the API
 *     server served (its /metrics `apiserver_request_total`, before/after, by verb and
 *     resource), the controller's own requests (its client's counters), time to all Ready;
 * (b) resync with nothing changed: every Listener reconciled again from the cache, and a
 *     controller restart (fresh caches, relist) → requests sent;
 * (c) heap and RSS of the process with those objects cached.
 *
 * The class is headless (`clusterIP: None` through serviceOverrides), as in the figures of
 * docs/performance.md since the envtest Service CIDR was a /24 (a /16 now); the request
 * path — one Service apply and one status apply per Listener — is the same as with an
 * allocated IP.
 * The controller manager is not started: ClusterIP Listeners need none of its controllers,
 * and without it every request the API server counts for Services and Listeners is ours
 * or the benchmark driver's.
 */
import { Duration, Effect, Exit, Metric, Scope } from "effect"
import { EventRecorderKube } from "../adapters/EventRecorderKube.ts"
import { KubeApiHttp } from "../adapters/KubeApiHttp.ts"
import { kubeConfigFromFile } from "../adapters/http/kubeconfig.ts"
import { Kinds } from "../domain/kinds.ts"
import { EventRecorder } from "../effects/shared/EventRecorder.ts"
import { KubeApi } from "../effects/shared/KubeApi.ts"
import type { KubeObject } from "../effects/shared/KubeApi.ts"
import { crdManifests } from "../k8s/crds.ts"
import { makeListenerController } from "../k8s/listenerController.ts"
import { reconcileTotal } from "../k8s/runtime/metrics.ts"
import { startControlPlane } from "../test/envtest/controlPlane.ts"
import { requestTotals } from "../test/envtest/nodeFleet.ts"

const COUNT = Number(process.argv[2] ?? 1000)
const CONCURRENCY = Number(process.argv[3] ?? 4)
const NAMESPACE = "bench"
const CLASS = "bench-clusterip"
const LISTENER_API = "listeners.stackable.tech/v1alpha1"

type Counts = Map<string, number>

const diff = (before: Counts, after: Counts): Counts => {
  const result: Counts = new Map()
  for (const [key, value] of after) {
    const delta = value - (before.get(key) ?? 0)
    if (delta > 0) result.set(key, delta)
  }
  return result
}

const INTERESTING = /^(\S+) (services|listeners|listeners\/status|listenerclasses|endpointslices|persistentvolumes|nodes|events)$/

const table = (title: string, columns: ReadonlyArray<readonly [string, Counts]>, perListener: boolean) => {
  const keys = [...new Set(columns.flatMap(([, c]) => [...c.keys()]))].filter((k) => INTERESTING.test(k)).sort()
  const header = ["request (verb resource)", ...columns.map(([name]) => name), ...(perListener ? ["per Listener"] : [])]
  const rows = keys.map((key) => {
    const values = columns.map(([, c]) => c.get(key) ?? 0)
    return [key, ...values.map(String), ...(perListener ? [(values[0]! / COUNT).toFixed(3)] : [])]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`
  console.log(`\n${title}\n${line(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n${rows.map(line).join("\n")}`)
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
const memory = () => {
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage()
}

const isReady = (listener: KubeObject) =>
  ((listener["status"] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [])
    .some((c) => c.type === "Ready" && c.status === "True")

const reconcileCount = Effect.map(
  Effect.all([
    Metric.value(Metric.withAttributes(reconcileTotal, { controller: "listener", result: "success" })),
    Metric.value(Metric.withAttributes(reconcileTotal, { controller: "listener", result: "error" }))
  ]),
  ([ok, failed]) => Number(ok.count) + Number(failed.count)
)

const main = Effect.gen(function*() {
  const plane = yield* Effect.acquireRelease(Effect.promise(() => startControlPlane()), (p) => Effect.promise(() => p.stop()))
  const kc = yield* kubeConfigFromFile(plane.kubeconfigPath)
  // Two clients: the driver's requests (creating Listeners) are kept apart from the controller's.
  const driver = (yield* KubeApiHttp.make(kc, { userAgent: "bench-driver", maxSockets: 32 })).api
  const ctl = yield* KubeApiHttp.make(kc, { userAgent: "listener-operator-bench" })
  const metrics = () => Effect.promise(() => plane.metrics()).pipe(Effect.map(requestTotals))

  for (const crd of crdManifests()) yield* driver.apply(Kinds.CustomResourceDefinition, { ...crd }, { fieldManager: "bench", force: true })
  // Wait until the new resources are served (Established, then discovery catches up).
  for (let attempt = 0; ; attempt++) {
    const served = yield* Effect.result(Effect.all([driver.list(Kinds.Listener, { namespace: "default" }), driver.list(Kinds.ListenerClass)]))
    if (served._tag === "Success") break
    if (attempt > 120) return yield* Effect.die(new Error("the Listener CRDs were not served within 60 s"))
    yield* Effect.sleep("500 millis")
  }
  yield* driver.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } })
  yield* driver.create(Kinds.ListenerClass, {
    apiVersion: LISTENER_API, kind: "ListenerClass", metadata: { name: CLASS },
    spec: { serviceType: "ClusterIP", serviceOverrides: { spec: { clusterIP: "None" } } }
  })

  const events = yield* EventRecorderKube.layer({ reportingController: "bench", reportingInstance: "bench-0" }).pipe(
    (layer) => Effect.provide(Effect.service(EventRecorder), layer),
    Effect.provideService(KubeApi, ctl.api)
  )
  const startController = (scope: Scope.Closeable) => Effect.gen(function*() {
    const lc = yield* makeListenerController.pipe(Effect.provideService(KubeApi, ctl.api))
    const fiber = yield* lc.run({ concurrency: CONCURRENCY, resyncInterval: Duration.infinity }).pipe(
      Effect.provideService(KubeApi, ctl.api),
      Effect.provideService(EventRecorder, events),
      Effect.forkScoped
    )
    yield* lc.controller.synced
    return { lc, fiber }
  }).pipe(Scope.provide(scope))

  // (a) burst
  const firstScope = yield* Scope.make()
  const { lc } = yield* startController(firstScope)
  yield* Effect.sleep("1 second")
  const memoryBefore = memory()
  yield* ctl.http.resetStats
  const beforeBurst = yield* metrics()
  const started = performance.now()
  yield* Effect.forEach(Array.from({ length: COUNT }, (_, i) => i), (i) =>
    driver.create(Kinds.Listener, {
      apiVersion: LISTENER_API, kind: "Listener", metadata: { name: `l-${i}`, namespace: NAMESPACE },
      spec: { className: CLASS, ports: [{ name: "http", port: 8080 }] }
    }), { concurrency: 32, discard: true })
  const created = performance.now()
  for (;;) {
    const listeners = yield* lc.caches.listeners.list(NAMESPACE)
    if (listeners.length === COUNT && listeners.every(isReady)) break
    yield* Effect.sleep("100 millis")
  }
  const allReady = performance.now()
  yield* Effect.sleep("3 seconds") // let stragglers (none expected) show up
  const burst = diff(beforeBurst, yield* metrics())
  const burstClient = yield* ctl.http.stats
  const memoryAfter = memory()

  // (b1) resync from the cache, nothing changed
  yield* ctl.http.resetStats
  const beforeResync = yield* metrics()
  const reconcilesBefore = yield* reconcileCount
  const listeners = yield* lc.caches.listeners.list(NAMESPACE)
  for (const l of listeners) yield* lc.controller.enqueue({ namespace: NAMESPACE, name: l.metadata.name! })
  const resyncStarted = performance.now()
  while ((yield* reconcileCount) < reconcilesBefore + COUNT) yield* Effect.sleep("50 millis")
  const resyncDone = performance.now()
  yield* Effect.sleep("2 seconds")
  const resync = diff(beforeResync, yield* metrics())
  const resyncClient = yield* ctl.http.stats

  // (b2) restart: a new controller with empty caches relists and reconciles everything
  yield* Scope.close(firstScope, Exit.void)
  yield* ctl.http.resetStats
  const beforeRestart = yield* metrics()
  const reconcilesBeforeRestart = yield* reconcileCount
  const restartStarted = performance.now()
  const secondScope = yield* Scope.make()
  yield* startController(secondScope)
  while ((yield* reconcileCount) < reconcilesBeforeRestart + COUNT) yield* Effect.sleep("50 millis")
  const restartDone = performance.now()
  yield* Effect.sleep("2 seconds")
  const restart = diff(beforeRestart, yield* metrics())
  const restartClient = yield* ctl.http.stats
  yield* Scope.close(secondScope, Exit.void)

  console.log(`\nListener controller benchmark: ${COUNT} ClusterIP Listeners, controller concurrency ${CONCURRENCY}, node ${process.version}, ${process.platform}/${process.arch}`)
  table("(a) burst — API server requests (apiserver_request_total deltas)", [["burst", burst]], true)
  console.log(`controller client requests during the burst: ${JSON.stringify(burstClient.byVerbResource)} (${(burstClient.total / COUNT).toFixed(3)} per Listener)`)
  console.log(`created ${COUNT} in ${(created - started).toFixed(0)} ms; all Ready ${(allReady - started).toFixed(0)} ms after the first create`)
  table("(b) nothing changed — API server requests", [["resync (cache)", resync], ["restart (relist)", restart]], false)
  console.log(`controller client requests: resync ${JSON.stringify(resyncClient.byVerbResource)} in ${(resyncDone - resyncStarted).toFixed(0)} ms; restart ${JSON.stringify(restartClient.byVerbResource)} in ${(restartDone - restartStarted).toFixed(0)} ms`)
  console.log(`\n(c) memory: before the burst heap ${megabytes(memoryBefore.heapUsed)}, RSS ${megabytes(memoryBefore.rss)}; with ${COUNT} Listeners and Services cached heap ${megabytes(memoryAfter.heapUsed)}, RSS ${megabytes(memoryAfter.rss)}`)
})

Effect.runPromise(Effect.scoped(main)).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
