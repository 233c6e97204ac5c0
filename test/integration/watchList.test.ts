// The runtime's caches fill from the real API server (issue 30): with a watch-list —
// one WATCH with sendInitialEvents, its objects reaching the store one at a time, no LIST
// at all — for a built-in kind and for our CRD; and, where the API server refuses the
// watch-list, with LISTs in pages (limit/continue). The refusal is the API server's own:
// a loopback proxy between client and server drops `resourceVersionMatch=NotOlderThan`
// from watch-lists, which kube-apiserver answers with 422 Invalid ("sendInitialEvents
// requires setting resourceVersionMatch to NotOlderThan") exactly as a server without the
// WatchList feature refuses `sendInitialEvents`. Requests are counted by the API server
// (apiserver_request_total) and seen at the proxy.
import assert from "node:assert/strict"
import { writeFileSync } from "node:fs"
import * as http from "node:http"
import * as https from "node:https"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { after, before, describe, test } from "node:test"
import { Effect, Fiber, ManagedRuntime } from "effect"
import { parse } from "yaml"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { Kinds } from "../../domain/kinds.ts"
import type { ResourceKind } from "../../domain/kinds.ts"
import type { KubeApi } from "../../effects/shared/KubeApi.ts"
import { crdManifests } from "../../k8s/crds.ts"
import { makeStore } from "../../k8s/runtime/store.ts"
import { runWatcher } from "../../k8s/runtime/watcher.ts"
import type { WatcherConfig, WatcherEvent } from "../../k8s/runtime/watcher.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"
import { clientOf, kubeApiRuntime } from "../envtest/kubeApiRuntime.ts"
import { eventually } from "../envtest/kubeClient.ts"
import { countsDiff, requestTotals } from "../envtest/nodeFleet.ts"

const NS = "watch-list"
const CONFIGMAPS = 120
const LISTENERS = 30
const log = process.env["ENVTEST_LOG"] !== undefined ? (line: string) => console.error(line) : undefined

type Runtime = ManagedRuntime.ManagedRuntime<KubeApi, unknown>

/**
 * Runs one watcher with a store until `until` holds for the store's objects; returns the
 * events it emitted (tags, and how many objects each carried).
 */
const cacheUntil = (
  runtime: Runtime,
  kind: ResourceKind,
  config: WatcherConfig,
  until: (count: number) => boolean,
  meanwhile: () => Promise<void> = async () => {}
) =>
  runtime.runPromise(Effect.gen(function*() {
    const writer = yield* makeStore(kind)
    const seen: Array<{ tag: WatcherEvent["_tag"]; objects: number }> = []
    const fiber = yield* Effect.forkChild(runWatcher(kind, config, (events) =>
      Effect.forEach(events, (event) => {
        seen.push({ tag: event._tag, objects: event._tag === "Relisted" ? event.objects.length : event._tag === "RelistStarted" || event._tag === "Restarted" ? 0 : 1 })
        return writer.apply(event)
      }, { discard: true })))
    yield* writer.store.ready
    yield* Effect.promise(meanwhile)
    yield* Effect.promise(() =>
      eventually(`${kind.kind} cache complete`, async () => until((await Effect.runPromise(writer.store.list(config.namespace))).length), { timeoutMs: 60_000, intervalMs: 50 }))
    const cached = yield* writer.store.list(config.namespace)
    yield* Fiber.interrupt(fiber)
    return { seen, cached }
  }))

describe("caches fill with a watch-list, or with paged lists where the API server refuses it", { timeout: 600_000 }, () => {
  let plane: ControlPlane
  let direct: Runtime
  let proxied: Runtime
  let proxy: http.Server
  const proxySaw: Array<{ path: string; status: number }> = []
  const totals = async () => requestTotals(await plane.metrics())
  /**
   * The API server's counts since `before`, once its WATCH count of `plural` reached
   * `watches`: a watch is counted when it ends, a moment after the client let go of it.
   */
  const deltaAfter = async (before: Map<string, number>, plural: string, watches: number) => {
    await eventually(`${watches} WATCH ${plural} counted`, async () => (countsDiff(before, await totals()).get(`WATCH ${plural}`) ?? 0) >= watches, { timeoutMs: 30_000, intervalMs: 200 })
    return countsDiff(before, await totals())
  }

  before(async () => {
    plane = await startControlPlane({ ...(log === undefined ? {} : { log }) })
    direct = kubeApiRuntime(plane.kubeconfigPath, "watch-list-test")
    await clientOf(() => direct as never).installCrds(crdManifests())
    await plane.kube.create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: NS } })
    for (let i = 0; i < CONFIGMAPS; i++) {
      await plane.kube.create(`/api/v1/namespaces/${NS}/configmaps`, {
        apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${i}` }, data: { value: "x".repeat(512) }
      })
    }
    for (let i = 0; i < LISTENERS; i++) {
      await plane.kube.create(`/apis/listeners.stackable.tech/v1alpha1/namespaces/${NS}/listeners`, {
        apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", metadata: { name: `l-${i}` },
        spec: { className: "none", ports: [{ name: "http", port: 8080 }] }
      })
    }

    // The proxy: plain HTTP on loopback to the API server's HTTPS with the admin's client
    // certificate; watch-lists lose their resourceVersionMatch on the way.
    const kubeconfig = parse(plane.kubeconfigYaml) as {
      clusters: Array<{ cluster: { "certificate-authority-data": string } }>
      users: Array<{ user: { "client-certificate-data": string; "client-key-data": string } }>
    }
    const b64 = (text: string) => Buffer.from(text, "base64")
    const upstream = new URL(plane.server)
    const agent = new https.Agent({
      keepAlive: true,
      ca: b64(kubeconfig.clusters[0]!.cluster["certificate-authority-data"]),
      cert: b64(kubeconfig.users[0]!.user["client-certificate-data"]),
      key: b64(kubeconfig.users[0]!.user["client-key-data"])
    })
    proxy = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://proxy")
      if (url.searchParams.get("sendInitialEvents") === "true") url.searchParams.delete("resourceVersionMatch")
      const path = url.pathname + url.search
      const out = https.request({ hostname: upstream.hostname, port: upstream.port, path, method: req.method, headers: { ...req.headers, host: upstream.host }, agent }, (answer) => {
        proxySaw.push({ path, status: answer.statusCode ?? 0 })
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      out.on("error", () => res.destroy())
      // the client letting go of a watch ends it at the API server too
      res.on("close", () => out.destroy())
      req.pipe(out)
    })
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
    const proxyKubeconfig = join(plane.dir, "proxied.kubeconfig.json")
    writeFileSync(proxyKubeconfig, JSON.stringify({
      apiVersion: "v1", kind: "Config", "current-context": "proxied",
      clusters: [{ name: "proxied", cluster: { server: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` } }],
      users: [{ name: "proxied", user: {} }],
      contexts: [{ name: "proxied", context: { cluster: "proxied", user: "proxied" } }]
    }))
    proxied = ManagedRuntime.make(KubeApiHttp.layerFromKubeconfigFile(proxyKubeconfig))
  })

  after(async () => {
    await proxied?.dispose()
    await direct?.dispose()
    proxy?.closeAllConnections()
    await new Promise((resolve) => proxy?.close(resolve))
    await plane?.stop()
  })

  test("a watch-list fills the cache one object at a time, without a LIST, and goes on with the changes", async () => {
    for (const kind of [Kinds.ConfigMap, Kinds.Listener]) {
      const expected = kind === Kinds.ConfigMap ? CONFIGMAPS : LISTENERS
      const before = await totals()
      const extra = `late-${kind.plural}`
      const { seen, cached } = await cacheUntil(direct, kind, { namespace: NS }, (count) => count === expected + 1, async () => {
        // a change after the initial state arrives on the same stream
        if (kind === Kinds.ConfigMap) {
          await plane.kube.create(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: extra } })
        } else {
          await plane.kube.create(`/apis/listeners.stackable.tech/v1alpha1/namespaces/${NS}/listeners`, {
            apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", metadata: { name: extra },
            spec: { className: "none", ports: [{ name: "http", port: 8080 }] }
          })
        }
      })
      const delta = await deltaAfter(before, kind.plural, 1)
      const relisted = seen.filter((e) => e.tag === "Relisted")
      assert.equal(seen[0]?.tag, "RelistStarted", kind.kind)
      assert.equal(relisted.length, expected, `${kind.kind}: one Relisted event per object`)
      assert.ok(relisted.every((e) => e.objects === 1), `${kind.kind}: each Relisted carries one object`)
      assert.equal(seen.filter((e) => e.tag === "Restarted").length, 1, kind.kind)
      assert.ok(seen.some((e) => e.tag === "Applied"), `${kind.kind}: the late object came as a watch event`)
      assert.equal(cached.length, expected + 1)
      assert.ok(cached.every((o) => o.metadata.managedFields === undefined), "stripped as they arrive")
      assert.equal(delta.get(`LIST ${kind.plural}`), undefined, `${kind.kind}: no LIST (${JSON.stringify([...delta])})`)
      assert.equal(delta.get(`WATCH ${kind.plural}`), 1, `${kind.kind}: one WATCH (${JSON.stringify([...delta])})`)
      if (kind === Kinds.ConfigMap) await plane.kube.delete(`/api/v1/namespaces/${NS}/configmaps/${extra}`)
      else await plane.kube.delete(`/apis/listeners.stackable.tech/v1alpha1/namespaces/${NS}/listeners/${extra}`)
    }
  })

  test("where the API server refuses the watch-list, the cache fills from LISTs in pages and then watches", async () => {
    const before = await totals()
    proxySaw.length = 0
    const { seen, cached } = await cacheUntil(proxied, Kinds.ConfigMap, { namespace: NS, listPageSize: 50 }, (count) => count === CONFIGMAPS + 1, async () => {
      await plane.kube.create(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "late-paged" } })
    })
    const delta = await deltaAfter(before, "configmaps", 2)
    const watchLists = proxySaw.filter((r) => r.path.includes("sendInitialEvents=true"))
    assert.deepEqual(watchLists.map((r) => r.status), [422], "the API server refused the watch-list once, and it was not asked again")
    const pages = proxySaw.filter((r) => r.path.includes("limit=50"))
    assert.equal(pages.length, 3, JSON.stringify(proxySaw))
    assert.equal(pages.filter((r) => r.path.includes("continue=")).length, 2)
    assert.deepEqual(seen.filter((e) => e.tag === "Relisted").map((e) => e.objects), [50, 50, 20])
    assert.equal(seen.filter((e) => e.tag === "Restarted").length, 1)
    assert.ok(seen.some((e) => e.tag === "Applied"))
    assert.equal(cached.length, CONFIGMAPS + 1)
    assert.equal(delta.get("LIST configmaps"), 3, JSON.stringify([...delta]))
    // the refused watch-list and the watch after the pages
    assert.equal(delta.get("WATCH configmaps"), 2, JSON.stringify([...delta]))
  })
})
