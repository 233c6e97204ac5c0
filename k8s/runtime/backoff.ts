/**
 * Exponential backoff with jitter, shared by the watcher (list/watch failures) and the work
 * queue (per-key reconcile failures). The delay computation is a pure function of the failure
 * count and one random draw so tests can pin the draw and check the bounds exactly.
 */
import { Duration, Effect, Random } from "effect"

export interface BackoffPolicy {
  /** Delay after the first consecutive failure. */
  readonly initial: Duration.Input
  /** Upper bound of every delay, jitter included. */
  readonly max: Duration.Input
  /** Growth per consecutive failure (2 doubles). */
  readonly factor: number
  /** Fraction in [0, 1]: the delay is drawn uniformly from [d·(1−jitter), d·(1+jitter)], then capped at `max`. */
  readonly jitter: number
}

/**
 * The delay before attempt `failures + 1`, in milliseconds.
 * `random` is a draw from [0, 1); `failures` counts consecutive failures (1 for the first).
 */
export const backoffMillis = (policy: BackoffPolicy, failures: number, random: number): number => {
  const initial = Duration.toMillis(Duration.fromInputUnsafe(policy.initial))
  const max = Duration.toMillis(Duration.fromInputUnsafe(policy.max))
  // Cap the exponent before multiplying so a long outage cannot overflow to Infinity.
  const exponent = Math.max(0, Math.min(failures - 1, 1024))
  const nominal = Math.min(max, initial * Math.pow(policy.factor, exponent))
  const jittered = nominal * (1 - policy.jitter + 2 * policy.jitter * random)
  return Math.max(0, Math.min(max, jittered))
}

/** The backoff delay for `failures` consecutive failures, jittered with the `Random` service. */
export const nextBackoff = (policy: BackoffPolicy, failures: number): Effect.Effect<Duration.Duration> =>
  Effect.map(Random.next, (random) => Duration.millis(backoffMillis(policy, failures, random)))

/** Checks a policy once at construction; a bad policy is a programming error (a defect naming the field). */
export const validateBackoffPolicy = (policy: BackoffPolicy, owner: string): Effect.Effect<BackoffPolicy> =>
  Effect.suspend(() => {
    const problem = backoffPolicyProblem(policy)
    return problem === undefined ? Effect.succeed(policy) : Effect.die(new Error(`${owner}: invalid backoff: ${problem}`))
  })

const backoffPolicyProblem = (policy: BackoffPolicy): string | undefined => {
  const initial = Duration.fromInput(policy.initial)
  const max = Duration.fromInput(policy.max)
  if (initial._tag === "None" || !Duration.isFinite(initial.value) || Duration.isNegative(initial.value)) {
    return `initial must be a finite, non-negative duration (got ${String(policy.initial)})`
  }
  if (max._tag === "None" || !Duration.isFinite(max.value) || Duration.isLessThan(max.value, initial.value)) {
    return `max must be a finite duration >= initial (got ${String(policy.max)})`
  }
  if (!(policy.factor >= 1)) return `factor must be >= 1 (got ${policy.factor})`
  if (!(policy.jitter >= 0 && policy.jitter <= 1)) return `jitter must be within [0, 1] (got ${policy.jitter})`
  return undefined
}
