import { test } from "node:test"
import assert from "node:assert/strict"
import { Deferred, Effect, Fiber } from "effect"
import { TargetLocks } from "../../../../effects/node/TargetLocks.ts"

const run = <A, E>(effect: Effect.Effect<A, E, TargetLocks>) => Effect.runPromise(Effect.provide(effect, TargetLocks.layer))

/** Hold the lock of `path` until `release` completes, saying when it got it. */
const holder = (path: string, got: Deferred.Deferred<void>, release: Deferred.Deferred<void>) =>
  Effect.gen(function*() {
    const locks = yield* TargetLocks
    yield* locks.withTarget(path)(Effect.andThen(Deferred.succeed(got, undefined), Deferred.await(release)))
  })

test("one holder per target at a time; other targets go on meanwhile", () =>
  run(Effect.gen(function*() {
    const locks = yield* TargetLocks
    const [firstGot, firstRelease, secondGot, secondRelease] = yield* Effect.all(Array.from({ length: 4 }, () => Deferred.make<void>()))
    const first = yield* Effect.forkChild(holder("/t/a", firstGot!, firstRelease!))
    yield* Deferred.await(firstGot!)
    const second = yield* Effect.forkChild(holder("/t/a", secondGot!, secondRelease!))
    // Another target is not held up by /t/a.
    assert.equal(yield* locks.withTarget("/t/b")(Effect.succeed("b")), "b")
    yield* Effect.sleep("10 millis")
    assert.equal(yield* Deferred.isDone(secondGot!), false, "the second holder of /t/a waits")
    assert.equal(yield* locks.inUse, 1, "/t/b was released and removed; /t/a has a holder and a waiter")
    yield* Deferred.succeed(firstRelease!, undefined)
    yield* Deferred.await(secondGot!)
    yield* Deferred.succeed(secondRelease!, undefined)
    yield* Fiber.join(first)
    yield* Fiber.join(second)
    assert.equal(yield* locks.inUse, 0, "released entries are removed")
  })))

test("a failing holder and a waiter interrupted while waiting release and remove their entry", () =>
  run(Effect.gen(function*() {
    const locks = yield* TargetLocks
    const failed = yield* Effect.flip(locks.withTarget("/t/a")(Effect.fail("boom")))
    assert.equal(failed, "boom")
    assert.equal(yield* locks.inUse, 0)

    const [got, release, neverGot, neverRelease] = yield* Effect.all(Array.from({ length: 4 }, () => Deferred.make<void>()))
    const first = yield* Effect.forkChild(holder("/t/a", got!, release!))
    yield* Deferred.await(got!)
    const waiter = yield* Effect.forkChild(holder("/t/a", neverGot!, neverRelease!))
    yield* Effect.sleep("5 millis")
    yield* Fiber.interrupt(waiter)
    yield* Deferred.succeed(release!, undefined)
    yield* Fiber.join(first)
    assert.equal(yield* Deferred.isDone(neverGot!), false)
    assert.equal(yield* locks.inUse, 0)
    // The lock is free again.
    assert.equal(yield* locks.withTarget("/t/a")(Effect.succeed(1)), 1)
  })))
