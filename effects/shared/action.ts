/**
 * Action: what a reconcile (or an error policy) asks the controller to do next with its key.
 *
 * The one type both sides use: the programs in effects/ return it without knowing about
 * queues (reconcileListener.ts), and the controller runtime's work queue turns it into
 * scheduling (k8s/runtime/workQueue.ts). Three answers exist:
 * - `requeueAfter(d)`: run again after `d` (e.g. poll for an external state); resets backoff.
 * - `awaitChange`: nothing to do until a watched object changes; resets backoff.
 * - `retryWithBackoff`: a transient failure; run again after the key's exponential backoff
 *   (with jitter), which grows with each consecutive `retryWithBackoff` and resets on any
 *   other action. Usually returned by an error policy, not by a reconcile.
 */
import { Duration } from "effect"

export interface RequeueAfter {
  readonly _tag: "RequeueAfter"
  readonly delay: Duration.Duration
}

export interface AwaitChange {
  readonly _tag: "AwaitChange"
}

export interface RetryWithBackoff {
  readonly _tag: "RetryWithBackoff"
}

export type Action = RequeueAfter | AwaitChange | RetryWithBackoff

const awaitChange: Action = { _tag: "AwaitChange" }
const retryWithBackoff: Action = { _tag: "RetryWithBackoff" }

export const Action = {
  /** Run the key again after `delay` (a negative or zero delay means "as soon as possible"). */
  requeueAfter: (delay: Duration.Input): Action => ({ _tag: "RequeueAfter", delay: Duration.fromInputUnsafe(delay) }),
  /** Do not requeue; the next watched change (or the periodic resync) runs the key again. */
  awaitChange,
  /** Transient failure: requeue after the key's growing, jittered backoff. */
  retryWithBackoff,
  match: <A>(action: Action, cases: {
    readonly RequeueAfter: (delay: Duration.Duration) => A
    readonly AwaitChange: () => A
    readonly RetryWithBackoff: () => A
  }): A => {
    switch (action._tag) {
      case "RequeueAfter":
        return cases.RequeueAfter(action.delay)
      case "AwaitChange":
        return cases.AwaitChange()
      case "RetryWithBackoff":
        return cases.RetryWithBackoff()
    }
  }
} as const
