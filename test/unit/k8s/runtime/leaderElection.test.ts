import { test } from "node:test"
import assert from "node:assert/strict"
import { Deferred, Effect, Fiber, Random, References, Stream } from "effect"
import { TestClock } from "effect/testing"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApi, KubeApiError } from "../../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { runWhileLeading } from "../../../../k8s/runtime/leaderElection.ts"

const lease = { namespace: "default", name: "listener-operator" }
const settle = Effect.gen(function*() {
  for (let i = 0; i < 100; i++) yield* Effect.yieldNow
})

interface Spec {
  holderIdentity?: string
  leaseDurationSeconds?: number
  renewTime?: string
  leaseTransitions?: number
}
const specOf = (object: KubeObject | undefined) => (object?.["spec"] ?? {}) as Spec

/**
 * Two replicas over one in-memory cluster; replica A's connection can be cut. Each replica's
 * leading effect records its terms and runs until interrupted.
 */
const scenario = <A>(options: { readonly bWatches?: boolean }, body: (ctx: {
  leaseObject: () => KubeObject | undefined
  cutA: (cut: boolean) => void
  startA: Effect.Effect<Fiber.Fiber<string>>
  startB: Effect.Effect<Fiber.Fiber<string>>
  terms: Array<string>
  leading: Set<string>
}) => Effect.Effect<A>) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory.make()
    let aCut = false
    const unavailable = () =>
      Effect.fail(new KubeApiError({ reason: "Unavailable", verb: "any", kind: "Lease", message: "connection refused" }))
    const apiA = KubeApi.overriding(cluster.api, {
      get: (kind, ref) => (aCut ? unavailable() : cluster.api.get(kind, ref)),
      update: (kind, object, options) => (aCut ? unavailable() : cluster.api.update(kind, object, options)),
      create: (kind, object, options) => (aCut ? unavailable() : cluster.api.create(kind, object, options))
    })
    const terms: Array<string> = []
    const leading = new Set<string>()
    const replica = (identity: string, api: typeof apiA) =>
      Effect.forkChild(
        runWhileLeading(
          { lease, identity },
          Effect.gen(function*() {
            assert.equal(leading.size, 0, `${identity} leads while ${[...leading].join()} does`)
            terms.push(identity)
            leading.add(identity)
            return yield* Effect.never
          }).pipe(Effect.ensuring(Effect.sync(() => leading.delete(identity))))
        ).pipe(Effect.provideService(KubeApi, api))
      )
    const leaseObject = () => cluster.objects(Kinds.Lease, "default").find((o) => o.metadata.name === lease.name)
    return yield* body({
      leaseObject,
      cutA: (cut) => { aCut = cut },
      startA: replica("a", apiA),
      startB: replica("b", options.bWatches === false
        ? KubeApi.of({ ...cluster.api, watch: () => Stream.fail(new KubeApiError({ reason: "Forbidden", verb: "watch", kind: "Lease", message: "no watch" })) })
        : cluster.api),
      terms,
      leading
    })
  })).pipe(
    Effect.provide(TestClock.layer()),
    Effect.provideService(Random.Random, { nextDoubleUnsafe: () => 0, nextIntUnsafe: () => 0 }),
    Effect.provideService(References.MinimumLogLevel, "None")
  ))

test("the first replica creates the lease and leads; the other waits while it renews", () =>
  scenario({}, ({ leaseObject, startA, startB, terms, leading }) => Effect.gen(function*() {
    yield* startA
    yield* settle
    assert.deepEqual(terms, ["a"])
    const created = specOf(leaseObject())
    assert.equal(created.holderIdentity, "a")
    assert.equal(created.leaseDurationSeconds, 15)
    assert.equal(created.leaseTransitions, 0)
    assert.match(created.renewTime ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/u)
    yield* startB
    for (let i = 0; i < 30; i++) {
      yield* TestClock.adjust("1 second")
      yield* settle
    }
    assert.deepEqual(terms, ["a"])
    assert.deepEqual([...leading], ["a"])
    // a renewed: renewTime moved with the clock (30s later, within one retry period)
    const renewed = Date.parse(specOf(leaseObject()).renewTime ?? "")
    assert.ok(renewed >= 28_000, `renewTime ${specOf(leaseObject()).renewTime} was not renewed`)
  })))

test("a leader that shuts down releases the lease and the standby, watching it, takes over at once", () =>
  scenario({}, ({ leaseObject, startA, startB, terms, leading }) => Effect.gen(function*() {
    const a = yield* startA
    yield* settle
    yield* startB
    yield* settle
    yield* TestClock.adjust("1 second")
    yield* settle
    yield* Fiber.interrupt(a)
    // no time passes: the release reaches b's watch, and b takes the lease
    yield* settle
    assert.deepEqual(terms, ["a", "b"])
    assert.deepEqual([...leading], ["b"])
    assert.equal(specOf(leaseObject()).holderIdentity, "b")
    assert.equal(specOf(leaseObject()).leaseTransitions, 1)
  })))

test("a standby whose watch fails takes a released lease at its next retry", () =>
  scenario({ bWatches: false }, ({ leaseObject, startA, startB, terms, leading }) => Effect.gen(function*() {
    const a = yield* startA
    yield* settle
    yield* startB
    yield* settle
    yield* Fiber.interrupt(a)
    assert.equal(specOf(leaseObject()).holderIdentity, undefined)
    yield* settle
    assert.deepEqual([...leading], [])
    // b retries every 2s (jitter pinned at 1×): well before the 15s lease would expire
    yield* TestClock.adjust("2 seconds")
    yield* settle
    assert.deepEqual(terms, ["a", "b"])
    assert.equal(specOf(leaseObject()).holderIdentity, "b")
    assert.equal(specOf(leaseObject()).leaseTransitions, 1)
  })))

test("a leader that cannot renew stops before the renew deadline ends; the standby takes over after expiry", () =>
  scenario({}, ({ leaseObject, cutA, startA, startB, terms, leading }) => Effect.gen(function*() {
    const a = yield* startA
    yield* settle
    yield* startB
    yield* settle
    cutA(true)
    const steps: Array<string> = []
    for (let second = 1; second <= 20; second++) {
      yield* TestClock.adjust("1 second")
      yield* settle
      steps.push(`${second}:${[...leading].join()}`)
    }
    // the last renewal was at t=0: a stops at the 10s renew deadline; b, which last saw the
    // lease change at t=0, takes it once 15s have passed (at its next 2s retry)
    assert.equal(steps[9], "10:")
    assert.equal(steps[8], "9:a")
    assert.equal(steps[15], "16:b")
    assert.deepEqual(terms, ["a", "b"])
    assert.equal(specOf(leaseObject()).holderIdentity, "b")
    // a is a candidate again, not dead; when its connection returns it stays a standby
    assert.equal(a.pollUnsafe(), undefined)
    cutA(false)
    for (let i = 0; i < 10; i++) {
      yield* TestClock.adjust("1 second")
      yield* settle
    }
    assert.deepEqual(terms, ["a", "b"])
  })))

test("when the leading effect ends the lease is released and its result returned", () =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory.make()
    const ran = yield* Deferred.make<void>()
    const result = yield* runWhileLeading({ lease, identity: "solo" }, Effect.as(Deferred.succeed(ran, undefined), 42)).pipe(
      Effect.provideService(KubeApi, cluster.api)
    )
    assert.equal(result, 42)
    const stored = cluster.objects(Kinds.Lease, "default")[0]
    assert.equal(specOf(stored).holderIdentity, undefined)
    assert.equal(specOf(stored).leaseDurationSeconds, 1)
  })).pipe(Effect.provideService(References.MinimumLogLevel, "None"))))

test("inconsistent durations are refused with a message naming them", async () => {
  const exit = await Effect.runPromise(Effect.exit(
    runWhileLeading({ lease, identity: "x", leaseDuration: "5 seconds", renewDeadline: "10 seconds" }, Effect.void).pipe(
      Effect.provide(KubeApi.layerStub())
    )
  ))
  assert.match(String(exit._tag === "Failure" ? exit.cause : ""), /leaseDuration > renewDeadline > retryPeriod/)
})
