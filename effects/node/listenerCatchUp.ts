/**
 * First-try publishes (issue 21): when a Listener has no addresses only because the
 * controller has not caught up with it yet — its Service was just applied, the node ports
 * are allocated but not yet in `status.nodePorts`, the status not yet written —
 * NodePublishVolume waits for it on the node's Listener watch (NodeView.ts), bounded by
 * `publishWait` (a few seconds), instead of failing UNAVAILABLE into the kubelet's back-off
 * (which would decide when the Pod starts: 1.6–2 s later on the real-node cluster).
 *
 * Waited for:
 * - node ports missing from the status: the API server allocates them when the Service is
 *   created, so only the controller's status write is outstanding;
 * - no addresses while the status has not observed the Listener's generation yet.
 * Not waited for (failing at once, with the explaining Event of volumeWaiting.ts): a
 * Listener whose status is current and still has no address — a LoadBalancer waiting for
 * its cloud, an unusable hostname template — and a Node without a usable address. Those
 * take longer than a call should hold the kubelet.
 *
 * The wait also ends `DEADLINE_MARGIN_MS` before the gRPC call's own deadline (CallDeadline.ts),
 * so a caller with a short deadline gets the not-ready error, saying how long the publish
 * waited and why it stopped, rather than the transport's bare DEADLINE_EXCEEDED.
 */
import { Duration, Effect, Option } from "effect"
import { CallDeadline, DEADLINE_MARGIN_MS } from "../shared/CallDeadline.ts"
import { Kinds } from "../../domain/kinds.ts"
import { Listener } from "../../domain/listener.ts"
import { NodeView } from "./NodeView.ts"
import { ListenerAddressesNotReady } from "../shared/volumeErrors.ts"
import { decodeObject } from "../shared/volumeObjects.ts"
import type { VolumeObjectInvalid } from "../shared/volumeErrors.ts"

const decodeListener = decodeObject(Kinds.Listener, Listener)

/** Whether the controller may still give `listener` what `error` says it lacks. */
export const controllerCatchingUp = (listener: Listener, error: ListenerAddressesNotReady): boolean => {
  switch (error.awaiting) {
    case "NodePorts":
      return true
    case "ListenerAddresses": {
      const observed = listener.status?.observedGeneration
      const generation = listener.metadata.generation
      return observed === undefined || (generation !== undefined && observed < generation)
    }
    case "NodeAddress":
      return false
  }
}

/** The last not-ready error, saying how long the publish waited and what ended the wait. */
const afterWaiting = (error: ListenerAddressesNotReady, waitedMs: number, cutByCall: boolean): ListenerAddressesNotReady =>
  new ListenerAddressesNotReady({
    namespace: error.namespace,
    listener: error.listener,
    awaiting: error.awaiting,
    acceptedAddressTypes: error.acceptedAddressTypes,
    problem: `${error.problem} (waited ${Math.max(0, Math.round(waitedMs))} ms for the controller; ${
      cutByCall ? `the wait ends ${DEADLINE_MARGIN_MS} ms before the call's deadline` : "the wait ends after publishWait"
    })`
  })

/**
 * `attempt(listener)`, again with each newer cached version of the Listener while it fails
 * with a not-ready error the controller is still catching up with, until `publishWait` has
 * passed or the call's deadline is `DEADLINE_MARGIN_MS` away, whichever comes first; then
 * the last failure.
 */
export const whileCatchingUp = <A, E, R>(
  listener: Listener,
  attempt: (listener: Listener) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | ListenerAddressesNotReady | VolumeObjectInvalid, R> =>
  Effect.gen(function*() {
    const view = yield* NodeView
    const ref = { namespace: listener.metadata.namespace ?? "", name: listener.metadata.name }
    const callDeadline = yield* CallDeadline
    const started = Date.now()
    const ownDeadline = started + Duration.toMillis(view.publishWait)
    const cutByCall = callDeadline - DEADLINE_MARGIN_MS < ownDeadline
    const deadline = Math.min(ownDeadline, callDeadline - DEADLINE_MARGIN_MS)
    // publishWait zero and no deadline in sight: fail at once, with the error as it is.
    const waits = deadline > started || cutByCall
    let current = listener
    for (;;) {
      // Counted before reading, so a change that lands in between still wakes the wait.
      const seen = yield* view.changeCount
      // Read after counting — the first time too: the watch may already have brought a
      // newer version than `listener` (the controller's status can arrive before the
      // publish's own apply has been answered), and that change is counted in `seen`,
      // so waiting for the next one would miss it.
      const cached = yield* view.listener(ref)
      if (Option.isSome(cached)) current = yield* decodeListener(cached.value, ref)
      const outcome = yield* Effect.result(attempt(current))
      if (outcome._tag === "Success") return outcome.success
      const error = outcome.failure
      const left = deadline - Date.now()
      if (!(error instanceof ListenerAddressesNotReady) || !controllerCatchingUp(current, error)) {
        return yield* Effect.fail(error)
      }
      if (left <= 0) return yield* Effect.fail(waits ? afterWaiting(error, Date.now() - started, cutByCall) : error)
      const woke = yield* Effect.timeoutOption(view.awaitChange(seen), Duration.millis(left))
      if (Option.isNone(woke)) return yield* Effect.fail(afterWaiting(error, Date.now() - started, cutByCall))
    }
  })
