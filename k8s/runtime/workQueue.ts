/**
 * WorkQueue: the keyed scheduler between "something changed" and "run the reconcile".
 *
 * Guarantees:
 * - De-duplication: a key added while it waits is queued once.
 * - One run per key at a time: a key added while it runs is run once more right after.
 * - Bounded concurrency: at most `concurrency` keys run at once (one fiber per worker).
 * - Delays: `requeueAfter(key, d)` keeps one pending timer per key, the earliest one; an
 *   immediate `add` supersedes a pending delay, and a run satisfies any delay pending when
 *   it starts (the run's own `Action` decides what comes next).
 * - Per-key backoff: each consecutive `retryWithBackoff` doubles the key's delay (with
 *   jitter, capped); any other Action resets it.
 * - Timers use the `Clock` service (TestClock drives them in tests); jitter uses `Random`.
 * - `shutdown` stops accepting keys, drops waiting and delayed ones, and waits for runs in
 *   progress to finish; closing the queue's scope instead interrupts runs in progress.
 * Caveats:
 * - Keys are plain strings; the controller uses `namespace/name` (objectRef.ts).
 * - Order among waiting keys is FIFO but not part of the contract.
 */
import { Cause, Clock, Duration, Effect, Fiber, FiberMap, Queue } from "effect"
import type { Scope } from "effect"
import type { Action } from "../../effects/shared/action.ts"
import { type BackoffPolicy, nextBackoff, validateBackoffPolicy } from "./backoff.ts"

export interface WorkQueueOptions<R> {
  /** Maximum number of keys processed at once (a positive integer). */
  readonly concurrency: number
  /** Backoff after `retryWithBackoff` (default 1s doubling to 5 min, jitter 0.2). */
  readonly backoff?: BackoffPolicy | undefined
  /** Runs one key; must not fail (map errors to an Action first). */
  readonly process: (key: string) => Effect.Effect<Action, never, R>
  /** Called whenever the number of waiting keys changes (e.g. to set a gauge). */
  readonly onDepthChange?: ((depth: number) => Effect.Effect<void>) | undefined
}

export interface WorkQueue {
  /** Queue `key` to run as soon as a worker is free. */
  add(key: string): Effect.Effect<void>
  addAll(keys: Iterable<string>): Effect.Effect<void>
  /** Queue `key` to run after `delay`, unless it is already due earlier. */
  requeueAfter(key: string, delay: Duration.Input): Effect.Effect<void>
  /** Keys waiting for a worker (not counting delayed or running ones). */
  readonly depth: Effect.Effect<number>
  /** Keys with a pending delayed run. */
  readonly delayed: Effect.Effect<number>
  /** Keys being processed right now. */
  readonly running: Effect.Effect<number>
  /** Stop accepting keys, drop pending ones, wait for runs in progress. */
  readonly shutdown: Effect.Effect<void>
}

export const defaultReconcileBackoff: BackoffPolicy = { initial: "1 second", max: "5 minutes", factor: 2, jitter: 0.2 }

export const makeWorkQueue = <R>(options: WorkQueueOptions<R>): Effect.Effect<WorkQueue, never, R | Scope.Scope> =>
  Effect.gen(function*() {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      return yield* Effect.die(new Error(`WorkQueue: concurrency must be a positive integer (got ${options.concurrency})`))
    }
    const policy = yield* validateBackoffPolicy(options.backoff ?? defaultReconcileBackoff, "WorkQueue")
    const onDepthChange = options.onDepthChange ?? (() => Effect.void)
    const ready = yield* Queue.unbounded<string, Cause.Done>()
    const timers = yield* FiberMap.make<string>()
    // Bookkeeping lives in plain collections touched only inside Effect.sync blocks, which
    // run without yielding; that keeps each transition atomic in the single-threaded runtime.
    const waiting = new Set<string>() // exactly the keys inside `ready`
    const runningKeys = new Set<string>()
    const rerun = new Set<string>() // added while running
    const dueAt = new Map<string, number>() // pending delayed runs, epoch millis
    const failures = new Map<string, number>()
    let closed = false

    const reportDepth = Effect.suspend(() => onDepthChange(waiting.size))

    /** Queues the key now (or marks it for a rerun); true when the waiting set grew. */
    const enqueueNow = (key: string): boolean => {
      if (closed) return false
      if (runningKeys.has(key)) {
        rerun.add(key)
        return false
      }
      if (waiting.has(key)) return false
      waiting.add(key)
      Queue.offerUnsafe(ready, key)
      return true
    }

    const cancelDelay = (key: string) =>
      Effect.suspend(() => (dueAt.delete(key) ? FiberMap.remove(timers, key) : Effect.void))

    const add = (key: string) =>
      Effect.andThen(cancelDelay(key), Effect.suspend(() => (enqueueNow(key) ? reportDepth : Effect.void)))

    const requeueAfter = (key: string, delay: Duration.Input): Effect.Effect<void> =>
      Effect.gen(function*() {
        if (closed || waiting.has(key) || rerun.has(key)) return // already due now: earliest wins
        const millis = Duration.toMillis(Duration.fromInputUnsafe(delay))
        if (!(millis > 0)) return yield* add(key)
        const due = (yield* Clock.currentTimeMillis) + millis
        const pending = dueAt.get(key)
        if (pending !== undefined && pending <= due) return
        dueAt.set(key, due)
        const fire = Effect.suspend(() => {
          dueAt.delete(key)
          return enqueueNow(key) ? reportDepth : Effect.void
        })
        yield* FiberMap.run(timers, key, Effect.andThen(Effect.sleep(Duration.millis(millis)), fire))
      })

    const settle = (key: string, action: Action): Effect.Effect<void> => {
      switch (action._tag) {
        case "AwaitChange":
          return Effect.sync(() => void failures.delete(key))
        case "RequeueAfter":
          return Effect.andThen(Effect.sync(() => void failures.delete(key)), requeueAfter(key, action.delay))
        case "RetryWithBackoff":
          return Effect.gen(function*() {
            const count = (failures.get(key) ?? 0) + 1
            failures.set(key, count)
            yield* requeueAfter(key, yield* nextBackoff(policy, count))
          })
      }
    }

    const runOne = (key: string) =>
      Effect.gen(function*() {
        waiting.delete(key)
        runningKeys.add(key)
        yield* reportDepth
        yield* cancelDelay(key)
        const action = yield* options.process(key).pipe(Effect.onExit(() => Effect.sync(() => runningKeys.delete(key))))
        yield* settle(key, action)
        if (rerun.delete(key) && enqueueNow(key)) yield* reportDepth
      })

    // A worker ends when `ready` is ended by shutdown (take fails with Done).
    const worker = Effect.forever(Effect.flatMap(Queue.take(ready), runOne)).pipe(
      Effect.catchIf(Cause.isDone, () => Effect.void)
    )
    const workers = yield* Effect.forEach(
      Array.from({ length: options.concurrency }, () => worker),
      (w) => Effect.forkScoped(w)
    )

    const shutdown = Effect.gen(function*() {
      if (closed) return
      closed = true
      waiting.clear()
      rerun.clear()
      dueAt.clear()
      yield* FiberMap.clear(timers)
      yield* Queue.clear(ready)
      yield* Queue.end(ready)
      yield* reportDepth
      yield* Fiber.awaitAll(workers)
    })

    return {
      add,
      addAll: (keys) => Effect.forEach(keys, add, { discard: true }),
      requeueAfter,
      depth: Effect.sync(() => waiting.size),
      delayed: Effect.sync(() => dueAt.size),
      running: Effect.sync(() => runningKeys.size),
      shutdown
    } satisfies WorkQueue
  })
