/**
 * The controller runtime end to end over the in-memory API server (adapters/KubeApiMemory):
 * real list/watch semantics, resourceVersions, 410 Gone from a short watch history.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Deferred, Effect, Fiber, Option, Random, References, Stream } from "effect"
import { TestClock } from "effect/testing"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApi, KubeApiError } from "../../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { Action } from "../../../../effects/shared/action.ts"
import { makeController, sameName } from "../../../../k8s/runtime/controller.ts"
import { runWhileLeading } from "../../../../k8s/runtime/leaderElection.ts"
import { objectKeyOf, refOf } from "../../../../k8s/runtime/objectRef.ts"

const settle = Effect.gen(function*() {
  for (let i = 0; i < 200; i++) yield* Effect.yieldNow
})

const listener = (name: string): KubeObject => ({
  apiVersion: "listeners.stackable.tech/v1alpha1",
  kind: "Listener",
  metadata: { name, namespace: "default" },
  spec: { className: "cluster-internal" }
})
const configMap = (name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "default" },
  data
})

test("end to end over the in-memory API server: sync, events, mapping, write-through and relist after 410", () =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory.make({
      watchHistory: 3,
      objects: [{ kind: Kinds.Listener, object: listener("a") }, { kind: Kinds.ConfigMap, object: configMap("a") }]
    })
    // Cutting the connection fails every open watch and refuses new ones, like a network partition.
    let cut = yield* Deferred.make<never, KubeApiError>()
    let isCut = false
    const partitioned = () => new KubeApiError({ reason: "Unavailable", verb: "watch", kind: "any", message: "connection reset" })
    const api = KubeApi.overriding(cluster.api, {
      watch: (kind, options) =>
        isCut ? Stream.fail(partitioned()) : cluster.api.watch(kind, options).pipe(Stream.interruptWhen(Deferred.await(cut)))
    })
    const calls: Array<string> = []

    yield* Effect.gen(function*() {
      const controller = yield* makeController({
        name: "e2e",
        primary: { kind: Kinds.Listener },
        watches: { configMaps: { kind: Kinds.ConfigMap, namespace: "default" } },
        mappers: () => ({ configMaps: sameName })
      })
      yield* Effect.forkChild(controller.run({
        concurrency: 2,
        reconcile: (primary) =>
          Effect.gen(function*() {
            calls.push(objectKeyOf(primary))
            // "b" owns a ConfigMap: create it and write the answer through to the cache
            if (primary.metadata.name !== "b" || Option.isSome(yield* controller.stores.configMaps.get(refOf(primary)))) return Action.awaitChange
            const created = yield* api.create(Kinds.ConfigMap, configMap("b", { owner: "b" }))
            assert.equal(yield* controller.stores.configMaps.writeThrough(created), true)
            return Action.awaitChange
          }).pipe(Effect.orDie)
      }))
      yield* controller.synced
      yield* settle
      assert.deepEqual(calls, ["default/a"])

      // a new primary is reconciled; its own write (written through) does not trigger it again
      yield* api.create(Kinds.Listener, listener("b"))
      yield* settle
      assert.deepEqual(calls, ["default/a", "default/b"])
      assert.deepEqual(
        Option.getOrUndefined(yield* controller.stores.configMaps.get({ namespace: "default", name: "b" }))?.["data"],
        { owner: "b" }
      )

      // a secondary change is mapped to its primary, deletion included
      calls.length = 0
      yield* api.delete(Kinds.ConfigMap, { namespace: "default", name: "a" })
      yield* settle
      assert.deepEqual(calls, ["default/a"])

      // partition, then more changes than the watch history holds: resuming gets 410 Gone,
      // the watcher relists, the vanished ConfigMap leaves the cache, its Listener runs
      calls.length = 0
      yield* api.create(Kinds.Listener, listener("c"))
      yield* api.create(Kinds.ConfigMap, configMap("c"))
      yield* settle
      calls.length = 0
      const watchesBefore = cluster.requests.count("watch", Kinds.ConfigMap)
      isCut = true
      yield* Deferred.fail(cut, partitioned())
      yield* settle
      yield* api.delete(Kinds.ConfigMap, { namespace: "default", name: "c" })
      for (const name of ["x1", "x2", "x3", "x4"]) yield* api.create(Kinds.ConfigMap, configMap(name))
      cut = yield* Deferred.make<never, KubeApiError>()
      isCut = false
      assert.equal(Option.isSome(yield* controller.stores.configMaps.get({ namespace: "default", name: "c" })), true)
      // the failed watch backs off 800ms; its Gone follows a failure, so the relist backs off
      // once more (1600ms) before its watch-list
      yield* TestClock.adjust("2 seconds")
      yield* settle
      yield* TestClock.adjust("1 second")
      yield* settle
      // the resume that met Gone, then the relist: a watch-list, never a LIST
      assert.equal(cluster.requests.count("watch", Kinds.ConfigMap), watchesBefore + 2)
      assert.equal(cluster.requests.count("list", Kinds.ConfigMap), 0)
      assert.equal(Option.isNone(yield* controller.stores.configMaps.get({ namespace: "default", name: "c" })), true)
      assert.equal(Option.isSome(yield* controller.stores.configMaps.get({ namespace: "default", name: "x4" })), true)
      assert.deepEqual(calls, ["default/c"])
    }).pipe(Effect.provideService(KubeApi, api))
  })).pipe(
    Effect.provide(TestClock.layer()),
    Effect.provideService(Random.Random, { nextDoubleUnsafe: () => 0.5, nextIntUnsafe: () => 0 }),
    Effect.provideService(References.MinimumLogLevel, "None")
  )))

test("two replicas with leader election: only the leader reconciles; the standby takes over on shutdown", () =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory.make({ objects: [{ kind: Kinds.Listener, object: listener("a") }] })
    const calls: Array<string> = []
    const replica = (identity: string) =>
      Effect.gen(function*() {
        const controller = yield* makeController({ name: identity, primary: { kind: Kinds.Listener } })
        return yield* runWhileLeading(
          { lease: { namespace: "default", name: "listener-operator" }, identity },
          controller.run({ reconcile: (primary) => Effect.as(Effect.sync(() => calls.push(`${identity}:${objectKeyOf(primary)}`)), Action.awaitChange) })
        )
      }).pipe(Effect.scoped, Effect.provideService(KubeApi, cluster.api), Effect.forkChild)
    const first = yield* replica("one")
    yield* settle
    yield* replica("two")
    yield* settle
    assert.deepEqual(calls, ["one:default/a"])
    yield* cluster.api.create(Kinds.Listener, listener("b"))
    yield* settle
    assert.deepEqual(calls, ["one:default/a", "one:default/b"])

    yield* Fiber.interrupt(first)
    yield* TestClock.adjust("5 seconds")
    yield* settle
    assert.deepEqual(calls.slice(2).sort(), ["two:default/a", "two:default/b"])
  })).pipe(
    Effect.provide(TestClock.layer()),
    Effect.provideService(Random.Random, { nextDoubleUnsafe: () => 0.5, nextIntUnsafe: () => 0 }),
    Effect.provideService(References.MinimumLogLevel, "None")
  )))
