import { test } from "node:test"
import assert from "node:assert/strict"
import { Data, Effect, Fiber, Metric, Option, Random, References } from "effect"
import { TestClock } from "effect/testing"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import type { KubeObject, ObjectRef } from "../../../../effects/shared/KubeApi.ts"
import { Action } from "../../../../effects/shared/action.ts"
import { makeController, runController, sameName } from "../../../../k8s/runtime/controller.ts"
import { reconcileDurationSeconds, reconcileTotal, workQueueDepth } from "../../../../k8s/runtime/metrics.ts"
import { objectKeyOf, refOf } from "../../../../k8s/runtime/objectRef.ts"
import { Indexers } from "../../../../k8s/runtime/store.ts"
import { makeFakeKubeApi, object } from "./fakeKubeApi.ts"

const NS_LABEL = "listeners.stackable.tech/listener-namespace"
const NAME_LABEL = "listeners.stackable.tech/listener-name"

const listener = (name: string, version: string, spec: unknown = {}) =>
  object(name, version, { kind: "Listener", namespace: "ns", spec })
const service = (name: string, version: string) => object(name, version, { kind: "Service", namespace: "ns" })
const pv = (name: string, version: string, listenerName?: string): KubeObject => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: {
    name,
    resourceVersion: version,
    ...(listenerName === undefined ? {} : { labels: { [NS_LABEL]: "ns", [NAME_LABEL]: listenerName } })
  }
})

/** The PV → Listener mapping a Listener controller needs: the Listener its labels name. */
const listenerOfVolume = (object: KubeObject): ReadonlyArray<ObjectRef> => {
  const namespace = object.metadata.labels?.[NS_LABEL]
  const name = object.metadata.labels?.[NAME_LABEL]
  return namespace === undefined || name === undefined ? [] : [{ namespace, name }]
}

class Invalid extends Data.TaggedError("Invalid")<{ readonly name: string }> {}

const settle = Effect.gen(function*() {
  for (let i = 0; i < 100; i++) yield* Effect.yieldNow
})

const spec = {
  name: "test",
  primary: { kind: Kinds.Listener },
  watches: {
    services: { kind: Kinds.Service },
    volumes: {
      kind: Kinds.PersistentVolume,
      labelSelector: NAME_LABEL,
      indexes: { listener: Indexers.labels([NS_LABEL, NAME_LABEL]) }
    }
  },
  mappers: () => ({ services: sameName, volumes: (pv: KubeObject) => Effect.succeed(listenerOfVolume(pv)) })
}

/** A controller over the scripted fake, with a reconcile that records its calls. */
const scenario = <A>(
  options: {
    reconcile?: (listener: KubeObject) => Effect.Effect<Action, Invalid>
    errorPolicy?: (error: Invalid, listener: KubeObject) => Effect.Effect<Action>
    concurrency?: number
  },
  body: (ctx: {
    fake: Effect.Success<ReturnType<typeof makeFakeKubeApi>>
    calls: Array<string>
    controller: Effect.Success<ReturnType<typeof makeController<typeof spec.primary, typeof spec.watches>>>
    start: Effect.Effect<Fiber.Fiber<never>>
    syncAll: (listeners: ReadonlyArray<KubeObject>, services?: ReadonlyArray<KubeObject>, pvs?: ReadonlyArray<KubeObject>) => Effect.Effect<void>
  }) => Effect.Effect<A, never, KubeApi>
) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const fake = yield* makeFakeKubeApi([Kinds.Listener, Kinds.Service, Kinds.PersistentVolume])
    const calls: Array<string> = []
    return yield* Effect.gen(function*() {
      const controller = yield* makeController(spec)
      const start = Effect.forkChild(controller.run({
        reconcile: (listener) =>
          Effect.andThen(Effect.sync(() => calls.push(objectKeyOf(listener))), options.reconcile?.(listener) ?? Effect.succeed(Action.awaitChange)),
        errorPolicy: options.errorPolicy,
        concurrency: options.concurrency ?? 2,
        resyncInterval: "10 minutes"
      }))
      const syncAll = (listeners: ReadonlyArray<KubeObject>, services: ReadonlyArray<KubeObject> = [], pvs: ReadonlyArray<KubeObject> = []) =>
        Effect.gen(function*() {
          yield* fake.kind(Kinds.Listener).respondList(listeners, "100")
          yield* fake.kind(Kinds.Service).respondList(services, "100")
          yield* fake.kind(Kinds.PersistentVolume).respondList(pvs, "100")
          yield* controller.synced
          yield* settle
        })
      return yield* body({ fake, calls, controller, start, syncAll })
    }).pipe(Effect.provideService(KubeApi, fake.service))
  })).pipe(
    Effect.provide(TestClock.layer()),
    Effect.provideService(Random.Random, { nextDoubleUnsafe: () => 0, nextIntUnsafe: () => 0 }),
    Effect.provideService(References.MinimumLogLevel, "None"),
    Effect.provideService(Metric.MetricRegistry, new Map())
  ))

test("no reconcile runs before every cache has synced; then each primary is reconciled once", () =>
  scenario({}, ({ fake, calls, controller, start }) => Effect.gen(function*() {
    yield* start
    yield* fake.kind(Kinds.Listener).respondList([listener("a", "1"), listener("b", "2")], "10")
    yield* fake.kind(Kinds.Service).respondList([service("a", "3")], "10")
    yield* settle
    assert.equal(yield* controller.primary.isReady, true)
    assert.deepEqual(calls, [], "reconciled before the PersistentVolume cache synced")
    yield* fake.kind(Kinds.PersistentVolume).respondList([pv("pv1", "4", "a")], "10")
    yield* settle
    assert.deepEqual(calls.sort(), ["ns/a", "ns/b"])
    // reads come from the caches, including secondary indexes
    assert.deepEqual((yield* controller.stores.volumes.listBy("listener", "ns/a")).map((o) => o.metadata.name), ["pv1"])
    assert.equal(Option.isSome(yield* controller.stores.services.get({ namespace: "ns", name: "a" })), true)
  })))

test("primary and mapped secondary changes enqueue the primary; a relabelled PV enqueues old and new Listener", () =>
  scenario({}, ({ fake, calls, start, syncAll }) => Effect.gen(function*() {
    yield* start
    yield* syncAll([listener("a", "1"), listener("b", "2"), listener("c", "3")], [], [pv("pv1", "4", "a")])
    calls.length = 0
    const listeners = yield* fake.kind(Kinds.Listener).nextWatch
    const services = yield* fake.kind(Kinds.Service).nextWatch
    const volumes = yield* fake.kind(Kinds.PersistentVolume).nextWatch
    assert.equal(volumes.options.labelSelector, NAME_LABEL)

    yield* listeners.emit("MODIFIED", listener("c", "101"))
    yield* settle
    assert.deepEqual(calls, ["ns/c"])

    calls.length = 0
    yield* services.emit("ADDED", service("b", "102"))
    yield* settle
    assert.deepEqual(calls, ["ns/b"])

    calls.length = 0
    yield* volumes.emit("MODIFIED", pv("pv1", "103", "b"))
    yield* settle
    assert.deepEqual(calls.sort(), ["ns/a", "ns/b"])

    calls.length = 0
    yield* volumes.emit("DELETED", pv("pv1", "104", "b"))
    yield* settle
    assert.deepEqual(calls, ["ns/b"])

    // mappers may name primaries that do not exist; deleted primaries are not reconciled
    calls.length = 0
    yield* services.emit("ADDED", service("nobody", "105"))
    yield* listeners.emit("DELETED", listener("a", "106"))
    yield* settle
    assert.deepEqual(calls, [])

    // a stale event (older than the cache) changes nothing and enqueues nothing
    calls.length = 0
    yield* listeners.emit("MODIFIED", listener("c", "50"))
    yield* settle
    assert.deepEqual(calls, [])
  })))

test("a key whose object is deleted while it waits is skipped: neither the reconcile nor the error policy runs", () => {
  const policyCalls: Array<string> = []
  return scenario({
    concurrency: 1,
    reconcile: (listener) =>
      listener.metadata.name === "first"
        ? Effect.as(Effect.sleep("1 second"), Action.awaitChange)
        : Effect.fail(new Invalid({ name: listener.metadata.name ?? "" })),
    errorPolicy: (error) => Effect.sync(() => (policyCalls.push(error.name), Action.awaitChange))
  }, ({ fake, calls, start, syncAll }) => Effect.gen(function*() {
    yield* start
    yield* syncAll([listener("first", "1"), listener("second", "2")])
    assert.deepEqual(calls, ["ns/first"], "one run at a time: second waits")
    const listeners = yield* fake.kind(Kinds.Listener).nextWatch
    yield* listeners.emit("DELETED", listener("second", "101"))
    yield* TestClock.adjust("1 second")
    yield* settle
    assert.deepEqual(calls, ["ns/first"])
    assert.deepEqual(policyCalls, [])
  }))
})

test("a relist after 410 Gone drops vanished objects and enqueues the primaries they mapped to", () =>
  scenario({}, ({ fake, calls, controller, start, syncAll }) => Effect.gen(function*() {
    yield* start
    yield* syncAll([listener("a", "1"), listener("b", "2")], [service("a", "3"), service("b", "4")])
    calls.length = 0
    const services = yield* fake.kind(Kinds.Service).nextWatch
    yield* services.fail("Gone")
    yield* fake.kind(Kinds.Service).respondList([service("a", "3")], "200")
    yield* settle
    assert.deepEqual(calls, ["ns/b"])
    assert.equal(Option.isNone(yield* controller.stores.services.get({ namespace: "ns", name: "b" })), true)
    assert.equal((yield* fake.kind(Kinds.Service).nextWatch).options.resourceVersion, "200")
  })))

test("reconcile errors go through the error policy; awaitChange does not requeue, requeueAfter does", () => {
  const policyCalls: Array<string> = []
  return scenario({
    reconcile: (listener) =>
      listener.metadata.name === "ok" ? Effect.succeed(Action.awaitChange) : Effect.fail(new Invalid({ name: listener.metadata.name ?? "" })),
    errorPolicy: (error, listener) =>
      Effect.sync(() => {
        // the policy gets the object the reconcile got
        policyCalls.push(`${error.name}:${objectKeyOf(listener)}@${listener.metadata.resourceVersion}`)
        return error.name === "bad" ? Action.awaitChange : Action.requeueAfter("1 minute")
      })
  }, ({ calls, start, syncAll }) => Effect.gen(function*() {
    yield* start
    yield* syncAll([listener("ok", "1"), listener("bad", "2"), listener("slow", "3")])
    assert.deepEqual(policyCalls.sort(), ["bad:ns/bad@2", "slow:ns/slow@3"])
    yield* TestClock.adjust("59 seconds")
    assert.equal(calls.filter((c) => c === "ns/slow").length, 1)
    yield* TestClock.adjust("1 second")
    yield* settle
    assert.equal(calls.filter((c) => c === "ns/slow").length, 2)
    assert.equal(calls.filter((c) => c === "ns/bad").length, 1)
    assert.equal(calls.filter((c) => c === "ns/ok").length, 1)
  }))
})

test("a defect in one reconcile is retried with backoff for that key only; the controller keeps running", () => {
  let attempts = 0
  return scenario({
    reconcile: (listener) =>
      listener.metadata.name === "boom" && ++attempts < 3 ? Effect.die(new Error("bug")) : Effect.succeed(Action.awaitChange)
  }, ({ fake, calls, start, syncAll }) => Effect.gen(function*() {
    const running = yield* start
    yield* syncAll([listener("boom", "1"), listener("fine", "2")])
    assert.deepEqual(calls.sort(), ["ns/boom", "ns/fine"])
    // default reconcile backoff: 1s, then 2s (jitter pinned at its low bound: 0.8s, 1.6s)
    yield* TestClock.adjust("800 millis")
    yield* settle
    yield* TestClock.adjust("1600 millis")
    yield* settle
    assert.equal(calls.filter((c) => c === "ns/boom").length, 3)
    yield* TestClock.adjust("1 minute")
    assert.equal(calls.filter((c) => c === "ns/boom").length, 3)
    assert.equal(running.pollUnsafe(), undefined)
    const listeners = yield* fake.kind(Kinds.Listener).nextWatch
    yield* listeners.emit("MODIFIED", listener("fine", "300"))
    yield* settle
    assert.equal(calls.filter((c) => c === "ns/fine").length, 2)

    const counts = yield* Effect.forEach(["success", "defect"], (result) =>
      Metric.value(Metric.withAttributes(reconcileTotal, { controller: "test", result })))
    // successes: fine, boom (3rd attempt), fine again; defects: boom twice
    assert.deepEqual(counts.map((c) => c.count), [3, 2])
  }))
})

test("every primary is re-enqueued each resync interval, from the cache; enqueue adds one", () =>
  scenario({}, ({ fake, calls, controller, start, syncAll }) => Effect.gen(function*() {
    yield* start
    yield* syncAll([listener("a", "1"), listener("b", "2")])
    yield* TestClock.adjust("9 minutes")
    assert.equal(calls.length, 2)
    yield* controller.enqueue({ namespace: "ns", name: "b" })
    yield* settle
    assert.deepEqual(calls.slice(2), ["ns/b"])
    calls.length = 2
    yield* TestClock.adjust("1 minute")
    yield* settle
    assert.deepEqual(calls.sort(), ["ns/a", "ns/a", "ns/b", "ns/b"])
    assert.equal((yield* fake.kind(Kinds.Listener).listCalls).length, 1)
  })))

test("interrupting run stops reconciling; the caches stay warm and run can start again", () =>
  scenario({}, ({ fake, calls, controller, start, syncAll }) => Effect.gen(function*() {
    const first = yield* start
    yield* syncAll([listener("a", "1")])
    yield* Fiber.interrupt(first)
    const listeners = yield* fake.kind(Kinds.Listener).nextWatch
    yield* listeners.emit("ADDED", listener("b", "101"))
    yield* settle
    assert.deepEqual(calls, ["ns/a"])
    assert.equal(Option.isSome(yield* controller.primary.get({ namespace: "ns", name: "b" })), true)
    yield* start
    yield* settle
    assert.deepEqual(calls.slice(1).sort(), ["ns/a", "ns/b"])
  })))

test("index names are checked at compile time", () =>
  scenario({}, ({ controller }) => Effect.sync(() => {
    // @ts-expect-error: "services" registered no index
    const wrong = () => controller.stores.services.listBy("listener", "x")
    assert.equal(typeof wrong, "function")
  })))

test("interrupting run gives runs in progress the shutdown grace, then interrupts them", () => {
  const finished: Array<string> = []
  const interrupted: Array<string> = []
  return scenario({
    reconcile: (listener) =>
      (listener.metadata.name === "slow" ? Effect.sleep("1 second") : Effect.never).pipe(
        Effect.andThen(Effect.sync(() => finished.push(listener.metadata.name ?? ""))),
        Effect.onInterrupt(() => Effect.sync(() => interrupted.push(listener.metadata.name ?? ""))),
        Effect.as(Action.awaitChange)
      )
  }, ({ start, syncAll }) => Effect.gen(function*() {
    const running = yield* start
    yield* syncAll([listener("slow", "1"), listener("stuck", "2")])
    const stopping = yield* Effect.forkChild(Fiber.interrupt(running))
    yield* settle
    yield* TestClock.adjust("1 second")
    yield* settle
    assert.deepEqual(finished, ["slow"])
    assert.equal(stopping.pollUnsafe(), undefined, "run stopped before the grace period ended")
    yield* TestClock.adjust("1 second")
    yield* Fiber.join(stopping)
    assert.deepEqual(interrupted, ["stuck"])
  }))
})

test("mappers are built with the caches and may read them; a mapper that throws is logged and ignored", () => {
  const calls: Array<string> = []
  return Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const fake = yield* makeFakeKubeApi([Kinds.Listener, Kinds.ListenerClass])
    yield* Effect.gen(function*() {
      const controller = yield* makeController({
        name: "classes",
        primary: {
          kind: Kinds.Listener,
          indexes: { className: (o: KubeObject) => [String((o["spec"] as { className?: string } | undefined)?.className)] }
        },
        watches: { classes: { kind: Kinds.ListenerClass } },
        // the mapper reads the primary cache through its index (a typo in the index name is a type error)
        mappers: ({ primary }) => ({
          classes: (listenerClass) => {
            if (listenerClass.metadata.labels?.["broken"] === "yes") throw new Error("mapper bug")
            return Effect.map(primary.listBy("className", listenerClass.metadata.name ?? ""), (found) => found.map(refOf))
          }
        })
      })
      yield* Effect.forkChild(controller.run({
        reconcile: (listener) => Effect.as(Effect.sync(() => calls.push(objectKeyOf(listener))), Action.awaitChange)
      }))
      yield* fake.kind(Kinds.Listener).respondList([
        listener("a", "1", { className: "internal" }),
        listener("b", "2", { className: "external" }),
        listener("c", "3", { className: "internal" })
      ], "10")
      yield* fake.kind(Kinds.ListenerClass).respondList([], "10")
      yield* controller.synced
      yield* settle
      calls.length = 0
      const classes = yield* fake.kind(Kinds.ListenerClass).nextWatch
      yield* classes.emit("ADDED", { apiVersion: "x", kind: "ListenerClass", metadata: { name: "internal", resourceVersion: "11" } })
      yield* settle
      assert.deepEqual(calls.sort(), ["ns/a", "ns/c"])
      calls.length = 0
      yield* classes.emit("ADDED", { apiVersion: "x", kind: "ListenerClass", metadata: { name: "external", resourceVersion: "12", labels: { broken: "yes" } } })
      yield* classes.emit("MODIFIED", { apiVersion: "x", kind: "ListenerClass", metadata: { name: "external", resourceVersion: "13" } })
      yield* settle
      // the broken version maps to nothing; the fixed version still maps, though the
      // mapper throws on the previous (broken) one
      assert.deepEqual(calls, ["ns/b"])
    }).pipe(Effect.provideService(KubeApi, fake.service))
  })).pipe(
    Effect.provide(TestClock.layer()),
    Effect.provideService(References.MinimumLogLevel, "None")
  ))
})

test("metrics: queue depth gauge and reconcile duration histogram", () =>
  scenario({
    reconcile: (listener) => (listener.metadata.name === "slow" ? Effect.as(Effect.sleep("3 seconds"), Action.awaitChange) : Effect.never),
    concurrency: 2
  }, ({ start, syncAll }) => Effect.gen(function*() {
    const running = yield* start
    yield* syncAll(["slow", "s1", "w1", "w2", "w3"].map((name, i) => listener(name, String(i + 1))))
    const depth = Metric.withAttributes(workQueueDepth, { controller: "test" })
    // two run (one forever), three wait
    assert.equal((yield* Metric.value(depth)).value, 3)
    yield* TestClock.adjust("3 seconds")
    yield* settle
    // "slow" finished after 3s: one more key started, two wait
    assert.equal((yield* Metric.value(depth)).value, 2)
    const histogram = yield* Metric.value(Metric.withAttributes(reconcileDurationSeconds, { controller: "test" }))
    assert.equal(histogram.count, 1)
    assert.equal(histogram.sum, 3)
    // stopping waits for the shutdown grace (virtual time) before interrupting the stuck runs
    const stopping = yield* Effect.forkChild(Fiber.interrupt(running))
    yield* settle
    yield* TestClock.adjust("2 seconds")
    yield* Fiber.join(stopping)
    assert.equal((yield* Metric.value(depth)).value, 0)
  })))

test("runController builds the reconcile from the controller's caches and runs it; the reconcile gets the cached object", () => {
  const seen: Array<string> = []
  return Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const fake = yield* makeFakeKubeApi([Kinds.Listener])
    const running = yield* Effect.forkChild(runController(
      { name: "one-shot", primary: { kind: Kinds.Listener } },
      (controller) => ({
        reconcile: (listener) =>
          Effect.map(controller.primary.get(refOf(listener)), (cached) => {
            assert.equal(Option.getOrUndefined(cached), listener, "the very object the cache holds")
            seen.push(`${objectKeyOf(listener)}@${listener.metadata.resourceVersion}`)
            return Action.awaitChange
          })
      })
    ).pipe(Effect.provideService(KubeApi, fake.service)))
    yield* fake.kind(Kinds.Listener).respondList([listener("a", "7")], "10")
    yield* settle
    assert.deepEqual(seen, ["ns/a@7"])
    yield* Fiber.interrupt(running)
  })).pipe(Effect.provide(TestClock.layer()), Effect.provideService(References.MinimumLogLevel, "None")))
})
