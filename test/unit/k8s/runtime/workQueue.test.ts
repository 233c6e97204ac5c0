import { test } from "node:test"
import assert from "node:assert/strict"
import { Clock, Deferred, Effect, Random, References } from "effect"
import { TestClock } from "effect/testing"
import { Action } from "../../../../effects/shared/action.ts"
import { backoffMillis } from "../../../../k8s/runtime/backoff.ts"
import { makeWorkQueue } from "../../../../k8s/runtime/workQueue.ts"

/** Lets forked fibers run until they block (no real time passes). */
const settle = Effect.gen(function*() {
  for (let i = 0; i < 50; i++) yield* Effect.yieldNow
})

interface Run {
  readonly key: string
  readonly at: number
}

/**
 * A harness around the queue: each run records its start time and, when the key is
 * gated, blocks until the test opens the gate; `decide` picks the Action.
 */
const harness = (options: {
  concurrency: number
  decide?: (key: string, attempt: number) => Action
  gated?: boolean
  random?: number
}) => {
  const body = <A>(f: (h: {
    queue: Effect.Success<ReturnType<typeof makeWorkQueue>>
    runs: Array<Run>
    active: Map<string, number>
    maxActive: () => number
    open: (key: string) => Effect.Effect<void>
  }) => Effect.Effect<A>) =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const runs: Array<Run> = []
      const active = new Map<string, number>()
      let activeTotal = 0
      let maxActive = 0
      const gates = new Map<string, Array<Deferred.Deferred<void>>>()
      const gateFor = (key: string) => Effect.gen(function*() {
        const gate = yield* Deferred.make<void>()
        gates.set(key, [...(gates.get(key) ?? []), gate])
        return gate
      })
      const queue = yield* makeWorkQueue({
        concurrency: options.concurrency,
        backoff: { initial: "1 second", max: "10 seconds", factor: 2, jitter: 0.2 },
        process: (key) => Effect.gen(function*() {
          runs.push({ key, at: yield* Clock.currentTimeMillis })
          active.set(key, (active.get(key) ?? 0) + 1)
          activeTotal++
          maxActive = Math.max(maxActive, activeTotal)
          assert.ok(active.get(key)! <= 1, `key ${key} runs twice at once`)
          if (options.gated === true) yield* Deferred.await(yield* gateFor(key))
          active.set(key, active.get(key)! - 1)
          activeTotal--
          const attempt = runs.filter((r) => r.key === key).length
          return options.decide?.(key, attempt) ?? Action.awaitChange
        })
      })
      const open = (key: string) => Effect.gen(function*() {
        yield* settle
        const pending = gates.get(key) ?? []
        assert.ok(pending.length > 0, `no run of ${key} is waiting`)
        gates.set(key, pending.slice(1))
        yield* Deferred.succeed(pending[0]!, undefined)
        yield* settle
      })
      return yield* f({ queue, runs, active, maxActive: () => maxActive, open })
    })).pipe(
      Effect.provide(TestClock.layer()),
      Effect.provideService(Random.Random, { nextDoubleUnsafe: () => options.random ?? 0, nextIntUnsafe: () => 0 }),
      Effect.provideService(References.MinimumLogLevel, "None")
    ))
  return body
}

test("backoffMillis grows by the factor, stays within the jitter bounds and the cap", () => {
  const policy = { initial: "1 second", max: "10 seconds", factor: 2, jitter: 0.2 } as const
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffMillis(policy, n, 0)), [800, 1600, 3200, 6400])
  assert.deepEqual([1, 2, 3].map((n) => backoffMillis(policy, n, 0.5)), [1000, 2000, 4000])
  assert.ok(Math.abs(backoffMillis(policy, 1, 0.999999) - 1200) < 0.01)
  // capped at max, jitter included
  assert.equal(backoffMillis(policy, 5, 0.999999), 10000)
  assert.equal(backoffMillis(policy, 50, 0), 8000)
  assert.equal(backoffMillis(policy, 5000, 0.5), 10000)
  for (let i = 0; i < 200; i++) {
    const r = i / 200
    const d = backoffMillis(policy, 2, r)
    assert.ok(d >= 1600 && d <= 2400, `delay ${d} outside [1600, 2400]`)
  }
})

test("a key queued several times while waiting runs once", () =>
  harness({ concurrency: 1, gated: true })(({ queue, runs, open }) => Effect.gen(function*() {
    yield* queue.add("busy")
    yield* settle
    yield* queue.addAll(["a", "a", "b", "a"])
    assert.equal(yield* queue.depth, 2)
    yield* open("busy")
    yield* open("a")
    yield* open("b")
    assert.deepEqual(runs.map((r) => r.key), ["busy", "a", "b"])
    assert.equal(yield* queue.depth, 0)
  })))

test("a key added while it runs is not run concurrently but once more afterwards", () =>
  harness({ concurrency: 4, gated: true })(({ queue, runs, active, open }) => Effect.gen(function*() {
    yield* queue.add("a")
    yield* settle
    yield* queue.add("a")
    yield* queue.add("a")
    yield* settle
    assert.equal(active.get("a"), 1)
    assert.equal(yield* queue.running, 1)
    assert.equal(runs.length, 1)
    yield* open("a")
    assert.equal(runs.length, 2)
    yield* open("a")
    assert.equal(runs.length, 2)
    assert.equal(yield* queue.running, 0)
  })))

test("no more than `concurrency` keys run at once", () =>
  harness({ concurrency: 2, gated: true })(({ queue, runs, maxActive, open }) => Effect.gen(function*() {
    yield* queue.addAll(["a", "b", "c", "d", "e"])
    yield* settle
    assert.equal(yield* queue.running, 2)
    assert.equal(yield* queue.depth, 3)
    for (const key of ["a", "b", "c", "d", "e"]) yield* open(key)
    assert.equal(runs.length, 5)
    assert.equal(maxActive(), 2)
  })))

test("retryWithBackoff requeues with growing delays (jitter at its low bound) and success resets them", () =>
  harness({
    concurrency: 1,
    random: 0,
    // fail three times, succeed once, then fail again
    decide: (_key, attempt) => (attempt === 4 ? Action.awaitChange : Action.retryWithBackoff)
  })(({ queue, runs }) => Effect.gen(function*() {
    yield* queue.add("a")
    yield* settle
    yield* TestClock.adjust("1 minute")
    // attempts at 0, +800, +1600, +3200 → success at 5600
    assert.deepEqual(runs.map((r) => r.at), [0, 800, 2400, 5600])
    yield* queue.add("a")
    yield* settle
    yield* TestClock.adjust("1 minute")
    // the 5th attempt (at 60000) fails: its backoff starts again at 800ms
    assert.deepEqual(runs.slice(4, 8).map((r) => r.at), [60000, 60800, 62400, 65600])
  })))

test("backoff delays reach the jitter's upper bound and the cap", () =>
  harness({ concurrency: 1, random: 0.999999, decide: () => Action.retryWithBackoff })(({ queue, runs }) =>
    Effect.gen(function*() {
      yield* queue.add("a")
      yield* settle
      yield* TestClock.adjust("40 seconds")
      const gaps = runs.slice(1).map((r, i) => r.at - runs[i]!.at)
      // 1200, 2400, 4800, 9600, then capped at 10000
      assert.deepEqual(gaps.slice(0, 6).map(Math.round), [1200, 2400, 4800, 9600, 10000, 10000])
    })))

test("requeueAfter keeps the earliest delay; an immediate add supersedes a delay", () =>
  harness({ concurrency: 1 })(({ queue, runs }) => Effect.gen(function*() {
    yield* queue.requeueAfter("a", "10 seconds")
    yield* queue.requeueAfter("a", "5 seconds")
    yield* queue.requeueAfter("a", "20 seconds")
    assert.equal(yield* queue.delayed, 1)
    yield* TestClock.adjust("1 minute")
    assert.deepEqual(runs.map((r) => `${r.key}@${r.at}`), ["a@5000"])

    yield* queue.requeueAfter("b", "10 seconds")
    yield* queue.add("b")
    yield* settle
    yield* TestClock.adjust("1 minute")
    assert.deepEqual(runs.map((r) => `${r.key}@${r.at}`), ["a@5000", "b@60000"])
    assert.equal(yield* queue.delayed, 0)
  })))

test("a RequeueAfter action runs the key again after the delay; AwaitChange never requeues", () =>
  harness({
    concurrency: 1,
    decide: (key, attempt) => (key === "poll" && attempt < 3 ? Action.requeueAfter("30 seconds") : Action.awaitChange)
  })(({ queue, runs }) => Effect.gen(function*() {
    yield* queue.addAll(["poll", "once"])
    yield* settle
    yield* TestClock.adjust("1 hour")
    assert.deepEqual(runs.map((r) => `${r.key}@${r.at}`), ["poll@0", "once@0", "poll@30000", "poll@60000"])
    assert.equal(yield* queue.delayed, 0)
  })))

test("shutdown waits for runs in progress, drops waiting and delayed keys, and ignores later adds", () =>
  harness({ concurrency: 1, gated: true })(({ queue, runs, open }) => Effect.gen(function*() {
    yield* queue.add("a")
    yield* queue.add("b")
    yield* queue.requeueAfter("c", "1 second")
    yield* settle
    const stopping = yield* Effect.forkChild(queue.shutdown)
    yield* settle
    assert.equal(stopping.pollUnsafe(), undefined, "shutdown returned while a run was in progress")
    yield* open("a")
    yield* settle
    assert.equal(stopping.pollUnsafe()?._tag, "Success")
    yield* queue.add("d")
    yield* TestClock.adjust("1 minute")
    assert.deepEqual(runs.map((r) => r.key), ["a"])
  })))

test("closing the queue's scope interrupts runs in progress", async () => {
  let finished = false
  let interrupted = false
  await Effect.runPromise(Effect.gen(function*() {
    const started = yield* Deferred.make<void>()
    yield* Effect.scoped(Effect.gen(function*() {
      const queue = yield* makeWorkQueue({
        concurrency: 1,
        process: () =>
          Effect.andThen(Deferred.succeed(started, undefined), Effect.never).pipe(
            Effect.onInterrupt(() => Effect.sync(() => { interrupted = true })),
            Effect.andThen(Effect.sync(() => { finished = true })),
            Effect.as(Action.awaitChange)
          )
      })
      yield* queue.add("a")
      yield* Deferred.await(started)
    }))
  }))
  assert.equal(interrupted, true)
  assert.equal(finished, false)
})

test("invalid options are refused with a message naming the field", async () => {
  const exit = await Effect.runPromise(Effect.exit(Effect.scoped(makeWorkQueue({ concurrency: 0, process: () => Effect.succeed(Action.awaitChange) }))))
  assert.equal(exit._tag, "Failure")
  assert.match(String(exit._tag === "Failure" ? exit.cause : ""), /concurrency must be a positive integer/)
  const badBackoff = await Effect.runPromise(Effect.exit(Effect.scoped(makeWorkQueue({
    concurrency: 1,
    backoff: { initial: "1 second", max: "1 second", factor: 2, jitter: 3 },
    process: () => Effect.succeed(Action.awaitChange)
  }))))
  assert.match(String(badBackoff._tag === "Failure" ? badBackoff.cause : ""), /jitter must be within/)
})
