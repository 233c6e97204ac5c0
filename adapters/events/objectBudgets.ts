/**
 * New-Event budgets per object: a token bucket each (`burst` tokens, one back every
 * `refillMillis`), as client-go's recorder keeps, so that a broken object cannot flood the
 * API server with Events.
 *
 * The map is bounded (`maxObjects`) without handing out budget by forgetting: when a new
 * object arrives at the bound, every bucket that has refilled to `burst` is dropped first —
 * a full bucket and no bucket mean the same, so nothing is lost. Only when no bucket is full
 * (more than `maxObjects` objects drew on their budget within `burst × refillMillis`) is the
 * least recently used one dropped; that object may then get up to `burst` Events early. The
 * bound is reached then only by a flood of distinct objects, each of which gets `burst` new
 * Events anyway, so this at most doubles the Event rate of that flood — and keeps memory bounded.
 */

interface Bucket {
  readonly tokens: number
  /** When `tokens` was last exact (refills count from here). */
  readonly atMillis: number
}

export interface ObjectBudgetsOptions {
  readonly burst: number
  /** 0 or less: every take finds a full bucket (no limit). */
  readonly refillMillis: number
  readonly maxObjects: number
}

export interface ObjectBudgets {
  /** Takes a token for `key` at `now`; false when its budget is spent. */
  readonly take: (key: string, now: number) => boolean
  /** Objects tracked (for tests). */
  readonly size: () => number
}

export const makeObjectBudgets = (options: ObjectBudgetsOptions): ObjectBudgets => {
  const { burst, refillMillis } = options
  const maxObjects = Math.max(1, options.maxObjects)
  // Insertion order = least recently used first (a take re-inserts its key).
  const buckets = new Map<string, Bucket>()

  const refilled = (bucket: Bucket, now: number): Bucket => {
    const regained = refillMillis <= 0 ? burst : Math.floor((now - bucket.atMillis) / refillMillis)
    const tokens = Math.min(burst, bucket.tokens + regained)
    return { tokens, atMillis: tokens === burst ? now : bucket.atMillis + regained * refillMillis }
  }

  const makeRoom = (now: number): void => {
    for (const [key, bucket] of buckets) {
      if (refilled(bucket, now).tokens >= burst) buckets.delete(key)
    }
    if (buckets.size < maxObjects) return
    const leastRecentlyUsed = buckets.keys().next().value
    if (leastRecentlyUsed !== undefined) buckets.delete(leastRecentlyUsed)
  }

  const take = (key: string, now: number): boolean => {
    const known = buckets.get(key)
    if (known === undefined && buckets.size >= maxObjects) makeRoom(now)
    const bucket = refilled(known ?? { tokens: burst, atMillis: now }, now)
    buckets.delete(key)
    if (bucket.tokens <= 0) {
      buckets.set(key, bucket)
      return false
    }
    buckets.set(key, { tokens: bucket.tokens - 1, atMillis: bucket.atMillis })
    return true
  }

  return { take, size: () => buckets.size }
}
