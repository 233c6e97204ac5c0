import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import { makeKeyedLock } from "../../../../effects/shared/keyedLock.ts"

test("keyedLock: one key runs one at a time, other keys run alongside, and no entry outlives its users", () =>
  Effect.runPromise(Effect.gen(function*() {
    const lock = makeKeyedLock()
    const running = new Map<string, number>()
    let mostAtOnce = new Map<string, number>()
    let keysAtOnce = 0
    const hold = (key: string) =>
      lock.withLock(key)(Effect.gen(function*() {
        running.set(key, (running.get(key) ?? 0) + 1)
        mostAtOnce = new Map(mostAtOnce).set(key, Math.max(mostAtOnce.get(key) ?? 0, running.get(key)!))
        keysAtOnce = Math.max(keysAtOnce, [...running.values()].filter((n) => n > 0).length)
        yield* Effect.sleep("5 millis")
        running.set(key, running.get(key)! - 1)
      }))
    yield* Effect.forEach(["a", "a", "a", "b", "b", "c"], hold, { concurrency: "unbounded", discard: true })
    assert.deepEqual(Object.fromEntries(mostAtOnce), { a: 1, b: 1, c: 1 })
    assert.equal(keysAtOnce, 3, "different keys overlap")
    assert.equal(yield* lock.size, 0)
  })))

test("keyedLock: a failing or interrupted holder releases the key", () =>
  Effect.runPromise(Effect.gen(function*() {
    const lock = makeKeyedLock()
    const failed = yield* Effect.flip(lock.withLock("k")(Effect.fail("boom")))
    assert.equal(failed, "boom")
    const waiter = lock.withLock("k")(Effect.never)
    yield* Effect.timeout(waiter, "10 millis").pipe(Effect.ignore)
    assert.equal(yield* lock.size, 0)
    assert.equal(yield* lock.withLock("k")(Effect.succeed("free")), "free")
  })))
