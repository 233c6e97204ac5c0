/**
 * Mutual exclusion per key: effects under one key run one at a time, effects under
 * different keys run concurrently. The Event recorder uses it so that a read of its series
 * bookkeeping and the API write that follows are one step per Event series (two records of
 * the same Event racing would otherwise both see "no series yet" and create two Events);
 * the node plugin's TargetLocks use it per CSI target path.
 *
 * A key's semaphore exists only while a fiber holds or waits for it, so the lock holds as
 * many entries as keys in use at this moment, not as many as were ever seen.
 */
import { Effect, Semaphore } from "effect"

interface Entry {
  readonly semaphore: Semaphore.Semaphore
  /** Fibers holding or waiting for the key. */
  users: number
}

export interface KeyedLock {
  /** Runs `effect` while holding `key` (waiting for earlier holders of `key`). */
  readonly withLock: (key: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Keys held or waited for right now. */
  readonly size: Effect.Effect<number>
}

export const makeKeyedLock = (): KeyedLock => {
  const entries = new Map<string, Entry>()
  const enter = (key: string) =>
    Effect.sync(() => {
      const entry = entries.get(key) ?? { semaphore: Semaphore.makeUnsafe(1), users: 0 }
      entry.users++
      entries.set(key, entry)
      return entry
    })
  const leave = (key: string, entry: Entry) =>
    Effect.sync(() => {
      entry.users--
      if (entry.users === 0) entries.delete(key)
    })
  return {
    // acquireUseRelease: the count is decremented even when the holder or a waiter is interrupted.
    withLock: (key) => (effect) => Effect.acquireUseRelease(enter(key), (entry) => entry.semaphore.withPermits(1)(effect), (entry) => leave(key, entry)),
    size: Effect.sync(() => entries.size)
  }
}
