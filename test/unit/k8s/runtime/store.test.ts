import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Option } from "effect"
import { Kinds } from "../../../../domain/kinds.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { Indexers, LAST_APPLIED_ANNOTATION, makeStore, type StoreWriter } from "../../../../k8s/runtime/store.ts"
import { WatcherEvent } from "../../../../k8s/runtime/watcher.ts"
import { object } from "./fakeKubeApi.ts"

const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)
const versionOf = (found: Option.Option<KubeObject>) => Option.getOrUndefined(found)?.metadata.resourceVersion
/** Applies a relist's events in order; the changes of all of them. */
const applyAll = <I extends string>(apply: StoreWriter<I>["apply"], events: ReadonlyArray<WatcherEvent>) =>
  Effect.map(Effect.forEach(events, apply), (changes) => changes.flat())
const names = (objects: ReadonlyArray<KubeObject>) => objects.map((o) => o.metadata.name).sort()

test("ready completes only after the first list is applied", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap)
    yield* apply(WatcherEvent.applied(object("a", "1")))
    assert.equal(yield* store.isReady, false)
    yield* applyAll(apply, WatcherEvent.relist([object("a", "1")], "1"))
    assert.equal(yield* store.isReady, true)
    yield* store.ready
  })))

test("managedFields are stripped from cached objects without touching the caller's object", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap)
    const raw: KubeObject = {
      ...object("a", "1"),
      metadata: { ...object("a", "1").metadata, managedFields: [{ manager: "kubectl", operation: "Apply" }] }
    }
    yield* applyAll(apply, WatcherEvent.relist([raw], "1"))
    const cached = Option.getOrThrow(yield* store.get({ namespace: "default", name: "a" }))
    assert.equal("managedFields" in cached.metadata, false)
    assert.equal(cached.metadata.uid, "uid-a")
    assert.equal(raw.metadata.managedFields?.length, 1)
    yield* store.writeThrough({ ...raw, metadata: { ...raw.metadata, resourceVersion: "2" } })
    assert.equal("managedFields" in Option.getOrThrow(yield* store.get({ namespace: "default", name: "a" })).metadata, false)
  })))

test("kubectl's last-applied copy is dropped from cached objects; other annotations stay", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap)
    const raw: KubeObject = {
      ...object("a", "1"),
      metadata: {
        ...object("a", "1").metadata,
        annotations: { [LAST_APPLIED_ANNOTATION]: JSON.stringify({ big: "x".repeat(10_000) }), "listeners.stackable.tech/applied-fingerprint": "f1" }
      }
    }
    yield* applyAll(apply, WatcherEvent.relist([raw], "1"))
    const cached = Option.getOrThrow(yield* store.get({ namespace: "default", name: "a" }))
    assert.deepEqual(cached.metadata.annotations, { "listeners.stackable.tech/applied-fingerprint": "f1" })
    assert.ok(LAST_APPLIED_ANNOTATION in raw.metadata.annotations!, "the caller's object is untouched")
    const plain = object("b", "2")
    yield* apply(WatcherEvent.applied(plain))
    assert.equal(Option.getOrThrow(yield* store.get({ namespace: "default", name: "b" })), plain, "an object with nothing to drop is cached as it is")
  })))

test("updates apply only when their resourceVersion is newer, compared as big integers", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap)
    const ref = { namespace: "default", name: "a" }
    yield* applyAll(apply, WatcherEvent.relist([object("a", "9")], "9"))
    // "10" < "9" as strings; as numbers it is newer
    assert.deepEqual((yield* apply(WatcherEvent.applied(object("a", "10")))).length, 1)
    assert.equal(versionOf(yield* store.get(ref)), "10")
    assert.deepEqual(yield* apply(WatcherEvent.applied(object("a", "9"))), [])
    assert.deepEqual(yield* apply(WatcherEvent.applied(object("a", "10"))), [])
    assert.equal(versionOf(yield* store.get(ref)), "10")
    // beyond 2^53, where Number() would call these equal
    assert.equal(yield* store.writeThrough(object("a", "9007199254740992")), true)
    assert.equal(yield* store.writeThrough(object("a", "9007199254740993")), true)
    assert.equal(yield* store.writeThrough(object("a", "9007199254740992")), false)
    assert.equal(versionOf(yield* store.get(ref)), "9007199254740993")
  })))

test("write-through wins over older watch events that arrive after it", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap)
    const ref = { namespace: "default", name: "a" }
    yield* applyAll(apply, WatcherEvent.relist([object("a", "5", { spec: "old" })], "5"))
    // our write returned version 8; the watch still has to deliver 6 (someone else) and 8 (ours)
    assert.equal(yield* store.writeThrough(object("a", "8", { spec: "ours" })), true)
    assert.deepEqual(yield* apply(WatcherEvent.applied(object("a", "6", { spec: "theirs" }))), [])
    assert.deepEqual(yield* apply(WatcherEvent.applied(object("a", "8", { spec: "ours" }))), [])
    assert.equal(Option.getOrThrow(yield* store.get(ref))["spec"], "ours")
    // a later change from the watch still applies and reports the write-through as previous
    const changes = yield* apply(WatcherEvent.applied(object("a", "9", { spec: "later" })))
    assert.equal(changes[0]?.previous?.["spec"], "ours")
    assert.equal(changes[0]?.current?.["spec"], "later")
    // an older write-through is refused
    assert.equal(yield* store.writeThrough(object("a", "7", { spec: "stale" })), false)
    assert.equal(Option.getOrThrow(yield* store.get(ref))["spec"], "later")
  })))

test("a delete is ignored when the cache holds a newer object (recreated meanwhile)", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap)
    const ref = { namespace: "default", name: "a" }
    yield* applyAll(apply, WatcherEvent.relist([], "1"))
    yield* store.writeThrough(object("a", "12", { uid: "second" }))
    assert.deepEqual(yield* apply(WatcherEvent.deleted(object("a", "11", { uid: "first" }))), [])
    assert.equal(Option.getOrThrow(yield* store.get(ref)).metadata.uid, "second")
    const deleted = yield* apply(WatcherEvent.deleted(object("a", "13", { uid: "second" })))
    assert.equal(deleted[0]?.previous?.metadata.uid, "second")
    assert.equal(deleted[0]?.current, undefined)
    assert.equal(Option.isNone(yield* store.get(ref)), true)
  })))

test("a relist replaces the contents: vanished objects are deleted, newer write-throughs kept", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap)
    yield* applyAll(apply, WatcherEvent.relist([object("a", "1"), object("b", "2"), object("c", "3")], "3"))
    yield* store.writeThrough(object("late", "40"))
    const changes = yield* applyAll(apply, WatcherEvent.relist([object("a", "1"), object("c", "20"), object("d", "21")], "30"))
    const summary = changes
      .map((c) => `${c.previous?.metadata.name ?? "-"}@${c.previous?.metadata.resourceVersion ?? ""}→${c.current?.metadata.name ?? "-"}@${c.current?.metadata.resourceVersion ?? ""}`)
      .sort()
    // a unchanged: no change; b vanished; c updated; d new; late (written at 40 > 30) kept
    assert.deepEqual(summary, ["-@→d@21", "b@2→-@", "c@3→c@20"])
    assert.deepEqual(names(yield* store.list()), ["a", "c", "d", "late"])
  })))

test("list by namespace and secondary indexes follow every change", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.PersistentVolume, {
      indexes: {
        listener: Indexers.labels(["listener-namespace", "listener-name"]),
        owner: Indexers.ownerUid
      }
    })
    const pv = (name: string, version: string, listener: string | undefined, owners: ReadonlyArray<string> = []): KubeObject => ({
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: {
        name,
        resourceVersion: version,
        ...(listener === undefined ? {} : { labels: { "listener-namespace": "ns", "listener-name": listener } }),
        ownerReferences: owners.map((uid) => ({ apiVersion: "v1", kind: "Pod", name: uid, uid }))
      }
    })
    yield* applyAll(apply, WatcherEvent.relist([pv("pv1", "1", "web", ["o1"]), pv("pv2", "2", "web", ["o1", "o2"]), pv("pv3", "3", undefined)], "3"))
    assert.deepEqual(names(yield* store.listBy("listener", "ns/web")), ["pv1", "pv2"])
    assert.deepEqual(names(yield* store.listBy("owner", "o1")), ["pv1", "pv2"])
    assert.deepEqual(names(yield* store.listBy("owner", "o2")), ["pv2"])
    yield* apply(WatcherEvent.applied(pv("pv2", "4", "db")))
    assert.deepEqual(names(yield* store.listBy("listener", "ns/web")), ["pv1"])
    assert.deepEqual(names(yield* store.listBy("listener", "ns/db")), ["pv2"])
    assert.deepEqual(names(yield* store.listBy("owner", "o2")), [])
    yield* apply(WatcherEvent.deleted(pv("pv1", "5", "web", ["o1"])))
    assert.deepEqual(yield* store.listBy("listener", "ns/web"), [])
    assert.deepEqual(names(yield* store.list()), ["pv2", "pv3"])

    const services = yield* makeStore(Kinds.Service)
    yield* applyAll(services.apply, WatcherEvent.relist([object("a", "1", { namespace: "x" }), object("b", "2", { namespace: "y" })], "2"))
    assert.deepEqual(names(yield* services.store.list("x")), ["a"])
    assert.deepEqual(names(yield* services.store.list("z")), [])
  })))

test("transform runs on cached objects; writeThrough of another kind is a defect", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap, {
      transform: (o) => ({ ...o, data: undefined })
    })
    yield* applyAll(apply, WatcherEvent.relist([{ ...object("a", "1"), data: { big: "x" } }], "1"))
    assert.equal(Option.getOrThrow(yield* store.get({ namespace: "default", name: "a" }))["data"], undefined)
    const exit = yield* Effect.exit(store.writeThrough(object("svc", "2", { kind: "Service" })))
    assert.equal(exit._tag, "Failure")
  })))

test("a relist streams in: the old contents stay readable until it ends; a new RelistStarted forgets an abandoned one", () =>
  run(Effect.gen(function*() {
    const { store, apply } = yield* makeStore(Kinds.ConfigMap)
    yield* applyAll(apply, WatcherEvent.relist([object("a", "1"), object("b", "2")], "2"))
    yield* apply(WatcherEvent.relistStarted)
    yield* apply(WatcherEvent.relisted([object("a", "5")]))
    // mid-relist: a is already the new version, b (not listed yet) is still there
    assert.equal(versionOf(yield* store.get({ namespace: "default", name: "a" })), "5")
    assert.equal(versionOf(yield* store.get({ namespace: "default", name: "b" })), "2")
    // the relist is abandoned (its stream broke) and starts over: a, seen only by the
    // abandoned attempt, is gone by the time the new one ends without it
    yield* apply(WatcherEvent.relistStarted)
    yield* apply(WatcherEvent.relisted([object("b", "6")]))
    const changes = yield* apply(WatcherEvent.restarted("7"))
    assert.deepEqual(changes.map((c) => `${c.previous?.metadata.name}→${c.current?.metadata.name ?? "-"}`), ["a→-"])
    assert.deepEqual(names(yield* store.list()), ["b"])
  })))
