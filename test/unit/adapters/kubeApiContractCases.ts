/**
 * The behaviour every KubeApi adapter must show, written once and run against the
 * in-memory adapter (test/unit) and against a real kube-apiserver with
 * kube-controller-manager (test/integration, envtest). Cases use only the port: each
 * gets its own namespace (created through the API), waits by polling with a timeout
 * instead of memory-only hooks, and never depends on objects other components may add
 * (e.g. the `kube-root-ca.crt` ConfigMap): lists and watches select by label.
 *
 * Cases using Listener need its CRD installed; Pod cases create the namespace's
 * `default` ServiceAccount first because the ServiceAccount admission plugin wants it.
 */
import assert from "node:assert/strict"
import { describe, test } from "node:test"
import { Duration, Effect, Fiber, Stream } from "effect"
import type { ResourceKind } from "../../../domain/kinds.ts"
import { Kinds } from "../../../domain/kinds.ts"
import type { KubeApi, KubeApiError, KubeObject, WatchEvent } from "../../../effects/shared/KubeApi.ts"

export type KubeApiService = (typeof KubeApi)["Service"]

export interface KubeApiFixture {
  readonly api: KubeApiService
  readonly cleanup: () => Promise<void>
  /** Forgets the stored change history up to the current resourceVersion, as etcd compaction does. */
  readonly compact: () => Promise<void>
}

export interface KubeApiContractOptions {
  /** How long asynchronous outcomes (garbage collection) may take. Default 20 s. */
  readonly eventuallyTimeoutMs?: number | undefined
  /** Poll interval while waiting for them. Default 50 ms. */
  readonly pollIntervalMs?: number | undefined
  /** How long a watch may take to deliver the expected events. Default 10 s. */
  readonly watchTimeoutMs?: number | undefined
  /** node:test timeout of each case. Default 60 s. */
  readonly caseTimeoutMs?: number | undefined
}

const ServiceAccount: ResourceKind = { group: "", version: "v1", kind: "ServiceAccount", plural: "serviceaccounts", namespaced: true }

interface Case {
  readonly api: KubeApiService
  /** This case's namespace, already created. */
  readonly ns: string
  /** A short unique token for names of cluster-scoped objects and label values. */
  readonly id: string
  readonly run: <A>(effect: Effect.Effect<A, KubeApiError>) => Promise<A>
  readonly failure: (effect: Effect.Effect<unknown, KubeApiError>) => Promise<KubeApiError>
  /** Polls `check` until it returns true or the timeout passes (then the case fails with `what`). */
  readonly eventually: (what: string, check: () => Promise<boolean>) => Promise<void>
  /** Collects `count` events of a watch, failing the case if they do not arrive in time. */
  readonly watchEvents: (
    stream: Stream.Stream<WatchEvent, KubeApiError>,
    count: number,
    during?: () => Promise<void>
  ) => Promise<ReadonlyArray<WatchEvent>>
  /** Deletes a cluster-scoped object when the case ends. */
  readonly deleteAtEnd: (kind: ResourceKind, name: string) => void
  /** The fixture's compaction of the change history. */
  readonly compact: () => Promise<void>
}

const randomId = (): string => Math.random().toString(36).slice(2, 8)

const configMap = (ns: string, name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: ns, ...(labels === undefined ? {} : { labels }) },
  data
})

const ownerRef = (owner: KubeObject, block = false) => ({
  apiVersion: owner.apiVersion ?? "v1",
  kind: owner.kind ?? "ConfigMap",
  name: owner.metadata.name!,
  uid: owner.metadata.uid!,
  ...(block ? { blockOwnerDeletion: true } : {})
})

const listener = (ns: string, name: string, className = "cluster-internal"): KubeObject => ({
  apiVersion: "listeners.stackable.tech/v1alpha1",
  kind: "Listener",
  metadata: { name, namespace: ns },
  spec: { className, ports: [{ name: "http", port: 80, protocol: "TCP" }] }
})

/** A valid events.k8s.io/v1 Event (the real server validates Events strictly). */
export const event = (ns: string, name: string): KubeObject => ({
  apiVersion: "events.k8s.io/v1",
  kind: "Event",
  metadata: { name, namespace: ns },
  eventTime: "2024-01-01T00:00:00.000000Z",
  reportingController: "listener-operator/contract",
  reportingInstance: "test",
  action: "Testing",
  reason: "Test",
  type: "Normal",
  regarding: { apiVersion: "v1", kind: "ConfigMap", name: "subject", namespace: ns }
})

const names = (items: ReadonlyArray<KubeObject>): Array<string> => items.map((o) => o.metadata.name ?? "").sort()

const rv = (o: KubeObject): number => Number(o.metadata.resourceVersion)

const hasReason = async (error: Promise<KubeApiError>, reason: KubeApiError["reason"]): Promise<KubeApiError> => {
  const e = await error
  assert.equal(e.reason, reason, `expected ${reason}, got ${e.reason}: ${e.message}`)
  return e
}

export const kubeApiContractCases = (
  name: string,
  makeApi: () => Promise<KubeApiFixture>,
  options: KubeApiContractOptions = {}
): void => {
  const eventuallyMs = options.eventuallyTimeoutMs ?? 20_000
  const pollMs = options.pollIntervalMs ?? 50
  const watchMs = options.watchTimeoutMs ?? 10_000

  const kubeCase = (title: string, body: (c: Case) => Promise<void>) =>
    test(title, { timeout: options.caseTimeoutMs ?? 60_000 }, async () => {
      const fixture = await makeApi()
      const id = randomId()
      const ns = `contract-${id}`
      const run = <A>(effect: Effect.Effect<A, KubeApiError>) => Effect.runPromise(effect)
      const failure = (effect: Effect.Effect<unknown, KubeApiError>) => Effect.runPromise(Effect.flip(effect))
      const clusterScoped: Array<[ResourceKind, string]> = []
      const c: Case = {
        api: fixture.api,
        ns,
        id,
        run,
        failure,
        eventually: async (what, check) => {
          const deadline = Date.now() + eventuallyMs
          for (;;) {
            if (await check()) return
            if (Date.now() > deadline) assert.fail(`timed out after ${eventuallyMs} ms waiting for: ${what}`)
            await new Promise((resolve) => setTimeout(resolve, pollMs))
          }
        },
        watchEvents: async (stream, count, during) => {
          const collect = stream.pipe(Stream.take(count), Stream.runCollect)
          return Effect.runPromise(
            Effect.gen(function*() {
              const fiber = yield* Effect.forkChild(collect)
              if (during !== undefined) yield* Effect.promise(during)
              return yield* Fiber.join(fiber)
            }).pipe(
              Effect.timeoutOrElse({
                duration: Duration.millis(watchMs),
                orElse: () => Effect.die(new Error(`watch did not deliver ${count} events within ${watchMs} ms`))
              })
            )
          )
        },
        deleteAtEnd: (kind, objectName) => {
          clusterScoped.push([kind, objectName])
        },
        compact: fixture.compact
      }
      await run(fixture.api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } }))
      try {
        await body(c)
      } finally {
        for (const [kind, objectName] of clusterScoped) {
          await Effect.runPromise(Effect.ignore(fixture.api.delete(kind, { name: objectName })))
        }
        await Effect.runPromise(Effect.ignore(fixture.api.delete(Kinds.Namespace, { name: ns })))
        await fixture.cleanup()
      }
    })

  describe(`KubeApi contract: ${name}`, () => {
    // --- basic CRUD and errors ---------------------------------------------------------

    kubeCase("create and get return the stored object with server-set metadata", async ({ api, ns, run }) => {
      const created = await run(api.create(Kinds.ConfigMap, configMap(ns, "a", { k: "v" }, { app: "x" })))
      assert.equal(created.metadata.name, "a")
      assert.equal(created.metadata.namespace, ns)
      assert.match(created.metadata.uid ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      assert.match(created.metadata.resourceVersion ?? "", /^\d+$/)
      assert.match(created.metadata.creationTimestamp ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      assert.equal(created.metadata.generation, undefined, "ConfigMaps have no generation")
      const read = await run(api.get(Kinds.ConfigMap, { namespace: ns, name: "a" }))
      assert.equal(read.metadata.uid, created.metadata.uid)
      assert.equal(read.metadata.resourceVersion, created.metadata.resourceVersion)
      assert.deepEqual(read["data"], { k: "v" })
      assert.equal(read.kind, "ConfigMap")
      assert.equal(read.apiVersion, "v1")
    })

    kubeCase("generateName appends five random characters", async ({ api, ns, run }) => {
      const created = await run(api.create(Kinds.ConfigMap, {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { generateName: "gen-", namespace: ns }
      }))
      assert.match(created.metadata.name ?? "", /^gen-[a-z0-9]{5}$/)
      const other = await run(api.create(Kinds.ConfigMap, {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { generateName: "gen-", namespace: ns }
      }))
      assert.notEqual(other.metadata.name, created.metadata.name)
    })

    kubeCase("resourceVersions grow across kinds; a stale update is a Conflict", async ({ api, ns, run, failure }) => {
      const cm = await run(api.create(Kinds.ConfigMap, configMap(ns, "a", { k: "1" })))
      const svc = await run(api.create(Kinds.Service, {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "s", namespace: ns },
        spec: { ports: [{ port: 80 }] }
      }))
      assert.ok(rv(svc) > rv(cm), "one resourceVersion sequence across kinds")
      const updated = await run(api.update(Kinds.ConfigMap, { ...cm, data: { k: "2" } }))
      assert.ok(rv(updated) > rv(svc))
      assert.deepEqual(updated["data"], { k: "2" })
      const stale = await hasReason(failure(api.update(Kinds.ConfigMap, { ...cm, data: { k: "3" } })), "Conflict")
      assert.match(stale.message, /the object has been modified; please apply your changes to the latest version and try again/)
      const { resourceVersion: _, ...unversioned } = updated.metadata
      const forced = await run(api.update(Kinds.ConfigMap, { ...updated, metadata: unversioned, data: { k: "4" } }))
      assert.deepEqual(forced["data"], { k: "4" }, "ConfigMaps allow updates without resourceVersion")
    })

    kubeCase("an update that changes nothing writes nothing", async ({ api, ns, run }) => {
      const cm = await run(api.create(Kinds.ConfigMap, configMap(ns, "a", { k: "1" })))
      const same = await run(api.update(Kinds.ConfigMap, cm))
      assert.equal(same.metadata.resourceVersion, cm.metadata.resourceVersion)
      const patched = await run(api.patch(Kinds.ConfigMap, { namespace: ns, name: "a" }, { data: { k: "1" } }, { type: "merge" }))
      assert.equal(patched.metadata.resourceVersion, cm.metadata.resourceVersion)
    })

    kubeCase("AlreadyExists and NotFound", async ({ api, ns, run, failure }) => {
      await run(api.create(Kinds.ConfigMap, configMap(ns, "a")))
      const exists = await hasReason(failure(api.create(Kinds.ConfigMap, configMap(ns, "a"))), "AlreadyExists")
      assert.match(exists.message, /configmaps "a" already exists/)
      const missing = await hasReason(failure(api.get(Kinds.ConfigMap, { namespace: ns, name: "b" })), "NotFound")
      assert.match(missing.message, /configmaps "b" not found/)
      await hasReason(failure(api.update(Kinds.ConfigMap, configMap(ns, "b"))), "NotFound")
      await hasReason(failure(api.patch(Kinds.ConfigMap, { namespace: ns, name: "b" }, { data: {} }, { type: "merge" })), "NotFound")
      await hasReason(failure(api.delete(Kinds.ConfigMap, { namespace: ns, name: "b" })), "NotFound")
      const noNamespace = await hasReason(
        failure(api.create(Kinds.ConfigMap, configMap(`${ns}-missing`, "a"))),
        "NotFound"
      )
      assert.match(noNamespace.message, /namespaces "[^"]+" not found/)
    })

    kubeCase("invalid names are refused with a cause naming metadata.name", async ({ api, ns, failure }) => {
      const error = await hasReason(failure(api.create(Kinds.ConfigMap, configMap(ns, "Bad_Name"))), "Invalid")
      assert.ok(error.causes?.some((c) => c.field === "metadata.name"), JSON.stringify(error.causes))
      assert.match(error.message, /ConfigMap "Bad_Name" is invalid/)
    })

    kubeCase("cluster-scoped objects ignore a namespace", async ({ api, run, id, deleteAtEnd }) => {
      const name = `contract-${id}`
      deleteAtEnd(Kinds.PersistentVolume, name)
      const pv = await run(api.create(Kinds.PersistentVolume, {
        apiVersion: "v1",
        kind: "PersistentVolume",
        metadata: { name, namespace: "default" },
        spec: {
          capacity: { storage: "1Gi" },
          accessModes: ["ReadWriteOnce"],
          csi: { driver: "listeners.stackable.tech", volumeHandle: name }
        }
      }))
      assert.equal(pv.metadata.namespace, undefined)
      assert.equal((pv["status"] as { phase?: string } | undefined)?.phase, "Pending")
      const read = await run(api.get(Kinds.PersistentVolume, { name }))
      assert.equal(read.metadata.uid, pv.metadata.uid)
    })

    // --- selectors ---------------------------------------------------------------------

    kubeCase("list filters by label and field selectors", async ({ api, ns, run }) => {
      await run(api.create(Kinds.ConfigMap, configMap(ns, "a", {}, { app: "x", tier: "web" })))
      await run(api.create(Kinds.ConfigMap, configMap(ns, "b", {}, { app: "x", tier: "db" })))
      const c = await run(api.create(Kinds.ConfigMap, configMap(ns, "c", {}, { app: "y" })))
      const list = (labelSelector: string, fieldSelector?: string) =>
        run(api.list(Kinds.ConfigMap, { namespace: ns, labelSelector, fieldSelector })).then((r) => names(r.items))
      assert.deepEqual(await list("app=x"), ["a", "b"])
      assert.deepEqual(await list("app==x,tier!=web"), ["b"])
      assert.deepEqual(await list("tier in (web, db)"), ["a", "b"])
      assert.deepEqual(await list("app,app notin (x)"), ["c"])
      assert.deepEqual(await list("app,!tier"), ["c"])
      assert.deepEqual(await list("app", "metadata.name=b"), ["b"])
      assert.deepEqual(await list("app", "metadata.name!=b"), ["a", "c"])
      const all = await run(api.list(Kinds.ConfigMap, { namespace: ns, labelSelector: "app" }))
      assert.ok(Number(all.resourceVersion) >= rv(c), "the list's resourceVersion covers its items")
      const everywhere = await run(api.list(Kinds.ConfigMap, { labelSelector: "app=y" }))
      assert.ok(names(everywhere.items.filter((o) => o.metadata.namespace === ns)).includes("c"), "no namespace lists all")
    })

    kubeCase("unparsable selectors and unsupported field labels are BadRequest", async ({ api, ns, failure, run }) => {
      await hasReason(failure(api.list(Kinds.ConfigMap, { namespace: ns, labelSelector: "a in (b" })), "BadRequest")
      await hasReason(failure(api.list(Kinds.ConfigMap, { namespace: ns, labelSelector: "a=b=c" })), "BadRequest")
      await hasReason(failure(api.list(Kinds.ConfigMap, { namespace: ns, labelSelector: "Bad Key" })), "BadRequest")
      const field = await hasReason(
        failure(api.list(Kinds.ConfigMap, { namespace: ns, fieldSelector: "spec.nodeName=x" })),
        "BadRequest"
      )
      // kinds without their own field label conversion name the two they support
      assert.match(field.message, /"spec\.nodeName" is not a known field selector: only "metadata\.name", "metadata\.namespace"/)
      await hasReason(failure(api.list(Kinds.ConfigMap, { namespace: ns, fieldSelector: "metadata.name" })), "BadRequest")
      const pods = await run(api.list(Kinds.Pod, { namespace: ns, fieldSelector: "spec.nodeName=nowhere" }))
      assert.deepEqual(pods.items, [], "Pods support spec.nodeName")
      // kinds with their own conversion (Pods) refuse in other words
      const podField = await hasReason(
        failure(api.list(Kinds.Pod, { namespace: ns, fieldSelector: "spec.bogus=x" })),
        "BadRequest"
      )
      assert.match(podField.message, /field label not supported: spec\.bogus/)
    })

    // --- watches -----------------------------------------------------------------------

    kubeCase("watch delivers ADDED, MODIFIED, DELETED in order from a resourceVersion", async (c) => {
      const { api, ns, run } = c
      const start = await run(api.list(Kinds.ConfigMap, { namespace: ns, labelSelector: "case=watch" }))
      const events = await c.watchEvents(
        api.watch(Kinds.ConfigMap, { namespace: ns, labelSelector: "case=watch", resourceVersion: start.resourceVersion }),
        3,
        async () => {
          const a = await run(api.create(Kinds.ConfigMap, configMap(ns, "a", { v: "1" }, { case: "watch" })))
          await run(api.update(Kinds.ConfigMap, { ...a, data: { v: "2" } }))
          await run(api.delete(Kinds.ConfigMap, { namespace: ns, name: "a" }))
        }
      )
      assert.deepEqual(events.map((e) => e.type), ["ADDED", "MODIFIED", "DELETED"])
      assert.deepEqual(events.map((e) => e.object.metadata.name), ["a", "a", "a"])
      assert.deepEqual(events[1]!.object["data"], { v: "2" })
      assert.deepEqual(events[2]!.object["data"], { v: "2" }, "DELETED carries the last state")
      const versions = events.map((e) => rv(e.object))
      assert.ok(versions[0]! < versions[1]! && versions[1]! < versions[2]!, `increasing: ${versions}`)
    })

    kubeCase("watch resumes after any retained resourceVersion", async (c) => {
      const { api, ns, run } = c
      const a = await run(api.create(Kinds.ConfigMap, configMap(ns, "a", {}, { case: "resume" })))
      await run(api.create(Kinds.ConfigMap, configMap(ns, "b", {}, { case: "resume" })))
      await run(api.patch(Kinds.ConfigMap, { namespace: ns, name: "a" }, { data: { x: "1" } }, { type: "merge" }))
      const events = await c.watchEvents(
        api.watch(Kinds.ConfigMap, { namespace: ns, labelSelector: "case=resume", resourceVersion: a.metadata.resourceVersion! }),
        2
      )
      assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ["ADDED b", "MODIFIED a"])
    })

    kubeCase("watch from resourceVersion 0 first replays the current state as ADDED", async (c) => {
      const { api, ns, run } = c
      await run(api.create(Kinds.ConfigMap, configMap(ns, "a", {}, { case: "zero" })))
      await run(api.create(Kinds.ConfigMap, configMap(ns, "b", {}, { case: "zero" })))
      const events = await c.watchEvents(
        api.watch(Kinds.ConfigMap, { namespace: ns, labelSelector: "case=zero", resourceVersion: "0" }),
        3,
        async () => {
          await run(api.create(Kinds.ConfigMap, configMap(ns, "c", {}, { case: "zero" })))
        }
      )
      assert.deepEqual(events.slice(0, 2).map((e) => e.type), ["ADDED", "ADDED"])
      assert.deepEqual(names(events.slice(0, 2).map((e) => e.object)), ["a", "b"])
      assert.equal(`${events[2]!.type} ${events[2]!.object.metadata.name}`, "ADDED c")
    })

    kubeCase("a watch-list sends the current state as ADDED, then the initial-events-end bookmark", async (c) => {
      const { api, ns, run } = c
      await run(api.create(Kinds.ConfigMap, configMap(ns, "a", {}, { case: "watch-list" })))
      await run(api.create(Kinds.ConfigMap, configMap(ns, "b", {}, { case: "watch-list" })))
      const stream = api.watch(Kinds.ConfigMap, {
        namespace: ns, labelSelector: "case=watch-list", resourceVersion: "", allowBookmarks: true, sendInitialEvents: true
      })
      const events = await c.watchEvents(stream, 3)
      assert.deepEqual(events.slice(0, 2).map((e) => e.type), ["ADDED", "ADDED"])
      assert.deepEqual(names(events.slice(0, 2).map((e) => e.object)), ["a", "b"])
      assert.equal(events[2]!.type, "BOOKMARK")
      assert.equal(events[2]!.object.metadata.annotations?.["k8s.io/initial-events-end"], "true")
      assert.ok(rv(events[2]!.object) >= Math.max(rv(events[0]!.object), rv(events[1]!.object)), "the bookmark's version covers the state sent")
    })

    // Watch-cached kinds (ConfigMap) keep their history since the API server started, even
    // across etcd compaction; Events are not watch-cached, so their watches read etcd, which
    // forgets compacted revisions.
    kubeCase("a watch from a compacted resourceVersion fails with Gone", async ({ api, ns, run, failure, compact }) => {
      const first = await run(api.create(Kinds.Event, event(ns, "e0")))
      // two more writes: etcd keeps the compaction revision itself, so the revision after e0
      // must lie strictly below it
      await run(api.create(Kinds.Event, event(ns, "e1")))
      await run(api.create(Kinds.Event, event(ns, "e2")))
      await compact()
      const error = await hasReason(
        failure(Stream.runCollect(Stream.take(api.watch(Kinds.Event, { namespace: ns, resourceVersion: first.metadata.resourceVersion!, timeoutSeconds: 5 }), 1))),
        "Gone"
      )
      assert.match(error.message, /The resourceVersion for the provided watch is too old/)
    })

    kubeCase("a label selector watch sees objects enter and leave the selection", async (c) => {
      const { api, ns, run } = c
      const start = await run(api.list(Kinds.ConfigMap, { namespace: ns }))
      const ref = { namespace: ns, name: "a" }
      const events = await c.watchEvents(
        api.watch(Kinds.ConfigMap, { namespace: ns, labelSelector: "team=a", resourceVersion: start.resourceVersion }),
        4,
        async () => {
          await run(api.create(Kinds.ConfigMap, configMap(ns, "a", {}, { team: "a" })))
          await run(api.patch(Kinds.ConfigMap, ref, { metadata: { labels: { team: "b" } } }, { type: "merge" }))
          await run(api.patch(Kinds.ConfigMap, ref, { data: { ignored: "not selected" } }, { type: "merge" }))
          await run(api.patch(Kinds.ConfigMap, ref, { metadata: { labels: { team: "a" } } }, { type: "merge" }))
          await run(api.delete(Kinds.ConfigMap, ref))
        }
      )
      assert.deepEqual(events.map((e) => e.type), ["ADDED", "DELETED", "ADDED", "DELETED"])
      assert.equal(events[1]!.object.metadata.labels?.["team"], "a", "leaving the selection shows the last matching state")
      assert.deepEqual(events[2]!.object["data"], { ignored: "not selected" })
    })

    kubeCase("a watch with timeoutSeconds ends by itself", async ({ api, ns, run }) => {
      const start = await run(api.list(Kinds.ConfigMap, { namespace: ns }))
      const events = await Effect.runPromise(
        Stream.runCollect(
          api.watch(Kinds.ConfigMap, { namespace: ns, labelSelector: "none=none", resourceVersion: start.resourceVersion, timeoutSeconds: 1 })
        ).pipe(Effect.timeout(Duration.seconds(30)))
      )
      assert.ok(events.every((e) => e.type === "BOOKMARK"), JSON.stringify(events))
    })

    // --- patches -----------------------------------------------------------------------

    kubeCase("merge patch, JSON patch with test, and resourceVersion preconditions", async ({ api, ns, run, failure }) => {
      const cm = await run(api.create(Kinds.ConfigMap, configMap(ns, "a", { keep: "1", drop: "2" })))
      const ref = { namespace: ns, name: "a" }
      const merged = await run(api.patch(Kinds.ConfigMap, ref, { data: { drop: null, add: "3" } }, { type: "merge" }))
      assert.deepEqual(merged["data"], { keep: "1", add: "3" })
      const json = await run(api.patch(Kinds.ConfigMap, ref, [
        { op: "test", path: "/data/keep", value: "1" },
        { op: "replace", path: "/data/keep", value: "9" }
      ], { type: "json" }))
      assert.deepEqual(json["data"], { keep: "9", add: "3" })
      await hasReason(
        failure(api.patch(Kinds.ConfigMap, ref, [{ op: "test", path: "/data/keep", value: "1" }, { op: "remove", path: "/data" }], { type: "json" })),
        "Invalid"
      )
      const unchanged = await run(api.get(Kinds.ConfigMap, ref))
      assert.deepEqual(unchanged["data"], { keep: "9", add: "3" }, "a failed JSON patch changes nothing")
      await hasReason(
        failure(api.patch(Kinds.ConfigMap, ref, { metadata: { resourceVersion: cm.metadata.resourceVersion }, data: { x: "y" } }, { type: "merge" })),
        "Conflict"
      )
      await hasReason(
        failure(api.patch(Kinds.ConfigMap, ref, [{ op: "remove", path: "/data/missing" }], { type: "json" })),
        "Invalid"
      )
    })

    // --- server-side apply -------------------------------------------------------------

    const applyCm = (ns: string, data: Record<string, string>, labels?: Record<string, string>): KubeObject =>
      configMap(ns, "cfg", data, labels)

    kubeCase("apply creates the object and records the manager", async ({ api, ns, run }) => {
      const created = await run(api.apply(Kinds.ConfigMap, applyCm(ns, { a: "1" }), { fieldManager: "alpha" }))
      assert.deepEqual(created["data"], { a: "1" })
      const entries = created.metadata.managedFields ?? []
      assert.ok(entries.some((e) => e.manager === "alpha" && e.operation === "Apply"), JSON.stringify(entries))
      const again = await run(api.apply(Kinds.ConfigMap, applyCm(ns, { a: "1" }), { fieldManager: "alpha" }))
      assert.equal(again.metadata.resourceVersion, created.metadata.resourceVersion, "re-applying the same is no write")
    })

    kubeCase("apply removes fields the manager no longer applies", async ({ api, ns, run }) => {
      await run(api.apply(Kinds.ConfigMap, applyCm(ns, { a: "1", b: "2" }, { l1: "x", l2: "y" }), { fieldManager: "alpha" }))
      const after = await run(api.apply(Kinds.ConfigMap, applyCm(ns, { a: "1" }, { l1: "x" }), { fieldManager: "alpha" }))
      assert.deepEqual(after["data"], { a: "1" })
      assert.deepEqual(after.metadata.labels, { l1: "x" })
    })

    kubeCase("apply conflicts with another manager's different value unless forced", async ({ api, ns, run, failure }) => {
      await run(api.apply(Kinds.ConfigMap, applyCm(ns, { shared: "alpha", own: "a" }), { fieldManager: "alpha" }))
      const error = await hasReason(
        failure(api.apply(Kinds.ConfigMap, applyCm(ns, { shared: "beta" }), { fieldManager: "beta" })),
        "Conflict"
      )
      assert.match(error.message, /conflict with "alpha"/)
      assert.match(error.message, /\.data\.shared/)
      const forced = await run(api.apply(Kinds.ConfigMap, applyCm(ns, { shared: "beta" }), { fieldManager: "beta", force: true }))
      assert.deepEqual(forced["data"], { shared: "beta", own: "a" })
      // beta owns `shared` now: alpha dropping it does not remove it.
      const after = await run(api.apply(Kinds.ConfigMap, applyCm(ns, { own: "a" }), { fieldManager: "alpha" }))
      assert.deepEqual(after["data"], { shared: "beta", own: "a" })
    })

    kubeCase("a field applied with the same value by two managers survives one of them", async ({ api, ns, run }) => {
      await run(api.apply(Kinds.ConfigMap, applyCm(ns, { shared: "same", a: "1" }), { fieldManager: "alpha" }))
      await run(api.apply(Kinds.ConfigMap, applyCm(ns, { shared: "same" }), { fieldManager: "beta" }))
      const after = await run(api.apply(Kinds.ConfigMap, applyCm(ns, { a: "1" }), { fieldManager: "alpha" }))
      assert.deepEqual(after["data"], { shared: "same", a: "1" })
      const gone = await run(api.apply(Kinds.ConfigMap, applyCm(ns, {}), { fieldManager: "beta" }))
      assert.deepEqual(gone["data"], { a: "1" }, "once no manager applies it, it is removed")
    })

    kubeCase("apply conflicts with fields set by a plain update", async ({ api, ns, run, failure }) => {
      await run(api.create(Kinds.ConfigMap, applyCm(ns, { x: "1" }), { fieldManager: "creator" }))
      const error = await hasReason(
        failure(api.apply(Kinds.ConfigMap, applyCm(ns, { x: "2" }), { fieldManager: "alpha" })),
        "Conflict"
      )
      assert.match(error.message, /conflict with "creator"/)
      const same = await run(api.apply(Kinds.ConfigMap, applyCm(ns, { x: "1" }), { fieldManager: "alpha" }))
      assert.deepEqual(same["data"], { x: "1" }, "the same value is no conflict")
    })

    kubeCase("apply merges Service ports by port and protocol", async ({ api, ns, run, failure }) => {
      const svc = (ports: Array<Record<string, unknown>>): KubeObject => ({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "web", namespace: ns },
        spec: { ports }
      })
      await run(api.apply(Kinds.Service, svc([{ name: "http", port: 80 }]), { fieldManager: "alpha" }))
      const both = await run(api.apply(Kinds.Service, svc([{ name: "metrics", port: 9090 }]), { fieldManager: "beta" }))
      const ports = (o: KubeObject) =>
        ((o["spec"] as { ports: Array<{ name: string; port: number; protocol: string }> }).ports)
          .map((p) => `${p.name}:${p.port}/${p.protocol}`).sort()
      assert.deepEqual(ports(both), ["http:80/TCP", "metrics:9090/TCP"])
      await hasReason(
        failure(api.apply(Kinds.Service, svc([{ name: "web", port: 80 }]), { fieldManager: "beta" })),
        "Conflict"
      )
      const udp = await run(api.apply(Kinds.Service, svc([{ name: "metrics", port: 9090 }, { name: "dns", port: 80, protocol: "UDP" }]), {
        fieldManager: "beta"
      }))
      assert.deepEqual(ports(udp), ["dns:80/UDP", "http:80/TCP", "metrics:9090/TCP"], "port 80/UDP is another item than 80/TCP")
      const dropped = await run(api.apply(Kinds.Service, svc([]), { fieldManager: "alpha" }))
      assert.deepEqual(ports(dropped), ["dns:80/UDP", "metrics:9090/TCP"])
    })

    kubeCase("apply without apiVersion, kind or name is a BadRequest", async ({ api, ns, failure }) => {
      const { apiVersion: _, ...noVersion } = configMap(ns, "x")
      await hasReason(failure(api.apply(Kinds.ConfigMap, noVersion as KubeObject, { fieldManager: "alpha" })), "BadRequest")
      const { kind: __, ...noKind } = configMap(ns, "x")
      await hasReason(failure(api.apply(Kinds.ConfigMap, noKind as KubeObject, { fieldManager: "alpha" })), "BadRequest")
    })

    // --- status subresource and generation ---------------------------------------------

    kubeCase("status is dropped on create and kept apart from spec writes", async ({ api, ns, run }) => {
      const ref = { namespace: ns, name: "l" }
      const created = await run(api.create(Kinds.Listener, { ...listener(ns, "l"), status: { serviceName: "ignored" } }))
      assert.equal(created["status"], undefined)
      assert.equal(created.metadata.generation, 1)
      const withStatus = await run(api.updateStatus(Kinds.Listener, {
        ...created,
        spec: { ...(created["spec"] as object), className: "changed-by-status" },
        status: { serviceName: "svc" }
      }))
      assert.deepEqual(withStatus["status"], { serviceName: "svc" })
      assert.equal((withStatus["spec"] as { className: string }).className, "cluster-internal", "status writes ignore spec")
      assert.equal(withStatus.metadata.generation, 1, "status writes keep the generation")
      const specChange = await run(api.update(Kinds.Listener, {
        ...withStatus,
        spec: { ...(withStatus["spec"] as object), className: "external-unstable" },
        status: { serviceName: "ignored-by-spec-write" }
      }))
      assert.deepEqual(specChange["status"], { serviceName: "svc" }, "spec writes keep the status")
      assert.equal((specChange["spec"] as { className: string }).className, "external-unstable")
      assert.equal(specChange.metadata.generation, 2)
      const labelled = await run(api.patch(Kinds.Listener, ref, { metadata: { labels: { a: "b" } } }, { type: "merge" }))
      assert.equal(labelled.metadata.generation, 2, "metadata changes keep the generation")
      const patchedStatus = await run(api.patchStatus(Kinds.Listener, ref, { status: { serviceName: "svc2" } }, { type: "merge" }))
      assert.deepEqual(patchedStatus["status"], { serviceName: "svc2" })
    })

    kubeCase("applyStatus owns status fields under the status subresource", async ({ api, ns, run }) => {
      await run(api.create(Kinds.Listener, listener(ns, "l")))
      const body = (serviceName: string): KubeObject => ({
        apiVersion: "listeners.stackable.tech/v1alpha1",
        kind: "Listener",
        metadata: { name: "l", namespace: ns },
        status: { serviceName }
      })
      const applied = await run(api.applyStatus(Kinds.Listener, body("svc"), { fieldManager: "controller" }))
      assert.deepEqual(applied["status"], { serviceName: "svc" })
      const entry = applied.metadata.managedFields?.find((e) => e.manager === "controller")
      assert.equal(entry?.operation, "Apply")
      assert.equal(entry?.subresource, "status")
      const ignored = await run(api.apply(Kinds.Listener, { ...listener(ns, "l"), status: { serviceName: "main" } }, {
        fieldManager: "other",
        force: true
      }))
      assert.deepEqual(ignored["status"], { serviceName: "svc" }, "apply on the main resource ignores status")
    })

    kubeCase("custom resources need a resourceVersion to update", async ({ api, ns, run, failure }) => {
      const created = await run(api.create(Kinds.Listener, listener(ns, "l")))
      const { resourceVersion: _, ...meta } = created.metadata
      const error = await hasReason(failure(api.update(Kinds.Listener, { ...created, metadata: meta })), "Invalid")
      assert.ok(error.causes?.some((c) => c.field === "metadata.resourceVersion"), JSON.stringify(error.causes))
    })

    // --- deletion ----------------------------------------------------------------------

    kubeCase("finalizers hold a deleted object until they are removed", async ({ api, ns, run, failure }) => {
      const ref = { namespace: ns, name: "a" }
      await run(api.create(Kinds.ConfigMap, { ...configMap(ns, "a"), metadata: { name: "a", namespace: ns, finalizers: ["example.com/hold"] } }))
      await run(api.delete(Kinds.ConfigMap, ref))
      const deleting = await run(api.get(Kinds.ConfigMap, ref))
      assert.match(deleting.metadata.deletionTimestamp ?? "", /Z$/)
      assert.equal(deleting.metadata.deletionGracePeriodSeconds, 0)
      await hasReason(
        failure(api.patch(Kinds.ConfigMap, ref, { metadata: { finalizers: ["example.com/hold", "example.com/more"] } }, { type: "merge" })),
        "Invalid"
      )
      await run(api.patch(Kinds.ConfigMap, ref, { metadata: { finalizers: null } }, { type: "merge" }))
      await hasReason(failure(api.get(Kinds.ConfigMap, ref)), "NotFound")
    })

    kubeCase("delete preconditions on uid and resourceVersion", async ({ api, ns, run, failure }) => {
      const cm = await run(api.create(Kinds.ConfigMap, configMap(ns, "a")))
      const ref = { namespace: ns, name: "a" }
      await hasReason(failure(api.delete(Kinds.ConfigMap, ref, { preconditions: { uid: "00000000-0000-0000-0000-000000000000" } })), "Conflict")
      await run(api.patch(Kinds.ConfigMap, ref, { data: { x: "1" } }, { type: "merge" }))
      await hasReason(failure(api.delete(Kinds.ConfigMap, ref, { preconditions: { resourceVersion: cm.metadata.resourceVersion } })), "Conflict")
      await run(api.delete(Kinds.ConfigMap, ref, { preconditions: { uid: cm.metadata.uid } }))
      await hasReason(failure(api.get(Kinds.ConfigMap, ref)), "NotFound")
    })

    kubeCase("background deletion: the garbage collector removes dependents", async ({ api, ns, run, eventually }) => {
      const owner = await run(api.create(Kinds.ConfigMap, configMap(ns, "owner")))
      const other = await run(api.create(Kinds.ConfigMap, configMap(ns, "other-owner")))
      await run(api.create(Kinds.ConfigMap, { ...configMap(ns, "dep"), metadata: { name: "dep", namespace: ns, ownerReferences: [ownerRef(owner)] } }))
      await run(api.create(Kinds.ConfigMap, {
        ...configMap(ns, "shared"),
        metadata: { name: "shared", namespace: ns, ownerReferences: [ownerRef(owner), ownerRef(other)] }
      }))
      await run(api.delete(Kinds.ConfigMap, { namespace: ns, name: "owner" }))
      const exists = (n: string) =>
        Effect.runPromise(Effect.match(api.get(Kinds.ConfigMap, { namespace: ns, name: n }), { onFailure: () => false, onSuccess: () => true }))
      await eventually("the dependent to be collected", async () => !(await exists("dep")))
      await eventually("the shared dependent to lose the dangling reference", async () => {
        const shared = await run(api.get(Kinds.ConfigMap, { namespace: ns, name: "shared" }))
        return (shared.metadata.ownerReferences ?? []).length === 1
      })
      const shared = await run(api.get(Kinds.ConfigMap, { namespace: ns, name: "shared" }))
      assert.equal(shared.metadata.ownerReferences?.[0]?.uid, other.metadata.uid)
    })

    kubeCase("foreground deletion waits for blocking dependents", async ({ api, ns, run, failure, eventually }) => {
      const owner = await run(api.create(Kinds.ConfigMap, configMap(ns, "owner")))
      await run(api.create(Kinds.ConfigMap, {
        ...configMap(ns, "dep"),
        metadata: { name: "dep", namespace: ns, ownerReferences: [ownerRef(owner, true)], finalizers: ["example.com/hold"] }
      }))
      await run(api.delete(Kinds.ConfigMap, { namespace: ns, name: "owner" }, { propagationPolicy: "Foreground" }))
      await eventually("the dependent to be deleted", async () => {
        const dep = await run(api.get(Kinds.ConfigMap, { namespace: ns, name: "dep" }))
        return dep.metadata.deletionTimestamp !== undefined
      })
      const waiting = await run(api.get(Kinds.ConfigMap, { namespace: ns, name: "owner" }))
      assert.ok(waiting.metadata.finalizers?.includes("foregroundDeletion"), JSON.stringify(waiting.metadata))
      assert.ok(waiting.metadata.deletionTimestamp !== undefined)
      await run(api.patch(Kinds.ConfigMap, { namespace: ns, name: "dep" }, { metadata: { finalizers: null } }, { type: "merge" }))
      await eventually("the owner to go once the dependent is gone", async () => {
        const e = await Effect.runPromise(Effect.flip(api.get(Kinds.ConfigMap, { namespace: ns, name: "owner" })).pipe(Effect.option))
        return e._tag === "Some" && e.value.reason === "NotFound"
      })
      await hasReason(failure(api.get(Kinds.ConfigMap, { namespace: ns, name: "dep" })), "NotFound")
    })

    kubeCase("orphan deletion keeps dependents and drops their owner reference", async ({ api, ns, run, failure, eventually }) => {
      const owner = await run(api.create(Kinds.ConfigMap, configMap(ns, "owner")))
      await run(api.create(Kinds.ConfigMap, { ...configMap(ns, "dep"), metadata: { name: "dep", namespace: ns, ownerReferences: [ownerRef(owner)] } }))
      await run(api.delete(Kinds.ConfigMap, { namespace: ns, name: "owner" }, { propagationPolicy: "Orphan" }))
      await eventually("the owner to be deleted", async () => {
        const e = await Effect.runPromise(Effect.flip(api.get(Kinds.ConfigMap, { namespace: ns, name: "owner" })).pipe(Effect.option))
        return e._tag === "Some" && e.value.reason === "NotFound"
      })
      const dep = await run(api.get(Kinds.ConfigMap, { namespace: ns, name: "dep" }))
      assert.equal(dep.metadata.ownerReferences, undefined)
      assert.equal(dep.metadata.deletionTimestamp, undefined)
      await hasReason(failure(api.get(Kinds.ConfigMap, { namespace: ns, name: "owner" })), "NotFound")
    })

    kubeCase("a scheduled Pod stays after delete until deleted with grace period 0", async ({ api, ns, run, failure }) => {
      await Effect.runPromise(Effect.ignore(api.create(ServiceAccount, {
        apiVersion: "v1",
        kind: "ServiceAccount",
        metadata: { name: "default", namespace: ns }
      })))
      const pod = (name: string, nodeName?: string): KubeObject => ({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, namespace: ns },
        spec: {
          ...(nodeName === undefined ? {} : { nodeName }),
          containers: [{ name: "main", image: "registry.example/app:1", ports: [{ containerPort: 8080, name: "http" }] }]
        }
      })
      const created = await run(api.create(Kinds.Pod, pod("scheduled", `contract-node-${ns}`)))
      assert.equal((created["status"] as { phase?: string }).phase, "Pending")
      assert.equal(
        (created["spec"] as { containers: Array<{ ports: Array<{ protocol: string }> }> }).containers[0]!.ports[0]!.protocol,
        "TCP"
      )
      const ref = { namespace: ns, name: "scheduled" }
      await run(api.delete(Kinds.Pod, ref))
      const terminating = await run(api.get(Kinds.Pod, ref))
      assert.equal(terminating.metadata.deletionGracePeriodSeconds, 30)
      assert.ok(terminating.metadata.deletionTimestamp !== undefined)
      await run(api.delete(Kinds.Pod, ref, { gracePeriodSeconds: 0 }))
      await hasReason(failure(api.get(Kinds.Pod, ref)), "NotFound")
      await run(api.create(Kinds.Pod, pod("unscheduled")))
      await run(api.delete(Kinds.Pod, { namespace: ns, name: "unscheduled" }))
      await hasReason(failure(api.get(Kinds.Pod, { namespace: ns, name: "unscheduled" })), "NotFound")
    })

    // --- Service defaults and validation -----------------------------------------------

    kubeCase("Services get defaults, cluster IPs and node ports", async ({ api, ns, run }) => {
      const created = await run(api.create(Kinds.Service, {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "web", namespace: ns },
        spec: { type: "NodePort", selector: { app: "web" }, ports: [{ name: "http", port: 80 }, { name: "https", port: 443, targetPort: 8443 }] }
      }))
      const spec = created["spec"] as Record<string, unknown> & {
        ports: Array<{ name: string; port: number; protocol: string; targetPort: number; nodePort: number }>
      }
      assert.match(spec["clusterIP"] as string, /^\d+\.\d+\.\d+\.\d+$/)
      assert.deepEqual(spec["clusterIPs"], [spec["clusterIP"]])
      assert.deepEqual(spec["ipFamilies"], ["IPv4"])
      assert.equal(spec["ipFamilyPolicy"], "SingleStack")
      assert.equal(spec["sessionAffinity"], "None")
      assert.equal(spec["externalTrafficPolicy"], "Cluster")
      assert.equal(spec["internalTrafficPolicy"], "Cluster")
      assert.deepEqual(spec.ports.map((p) => [p.protocol, p.targetPort]), [["TCP", 80], ["TCP", 8443]])
      for (const p of spec.ports) assert.ok(p.nodePort >= 30000 && p.nodePort <= 32767, `nodePort ${p.nodePort}`)
      assert.notEqual(spec.ports[0]!.nodePort, spec.ports[1]!.nodePort)
      const clusterIP = await run(api.update(Kinds.Service, { ...created, spec: { ...spec, type: "ClusterIP", externalTrafficPolicy: undefined } }))
      const after = clusterIP["spec"] as { clusterIP: string; ports: Array<{ nodePort?: number }> }
      assert.deepEqual(after.ports.map((p) => p.nodePort), [undefined, undefined], "ClusterIP drops node ports")
      assert.equal(after.clusterIP, spec["clusterIP"], "the cluster IP stays")
      const lb = await run(api.create(Kinds.Service, {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "lb", namespace: ns },
        spec: { type: "LoadBalancer", allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }] }
      }))
      assert.equal((lb["spec"] as { ports: Array<{ nodePort?: number }> }).ports[0]!.nodePort, undefined)
    })

    kubeCase("Service validation names the offending port fields", async ({ api, ns, failure }) => {
      const svc = (ports: Array<Record<string, unknown>>): KubeObject => ({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "web", namespace: ns },
        spec: { ports }
      })
      const unnamed = await hasReason(failure(api.create(Kinds.Service, svc([{ name: "a", port: 80 }, { port: 81 }]))), "Invalid")
      assert.ok(unnamed.causes?.some((c) => c.field === "spec.ports[1].name"), JSON.stringify(unnamed.causes))
      const duplicate = await hasReason(
        failure(api.create(Kinds.Service, svc([{ name: "a", port: 80 }, { name: "a", port: 81 }]))),
        "Invalid"
      )
      assert.ok(duplicate.causes?.some((c) => c.field === "spec.ports[1].name"), JSON.stringify(duplicate.causes))
      const badPort = await hasReason(failure(api.create(Kinds.Service, svc([{ name: "a", port: 70000 }]))), "Invalid")
      assert.ok(badPort.causes?.some((c) => c.field === "spec.ports[0].port"), JSON.stringify(badPort.causes))
    })
  })
}
