/**
 * The node plugin creates neither PodListeners nor per-volume Listeners (the admission
 * policy refuses it, docs/security.md): the controller's volume binder creates them bound to
 * the Pod's node once it sees the Pod marked (effects/controller/bindPodVolumes.ts). Until
 * then NodePublishVolume waits here — bounded, re-reading on every change of the node's
 * Listener watch or every `POLL_MS` — and fails UNAVAILABLE (`AwaitingNodeBinding`) when the
 * wait is over, so the kubelet retries.
 *
 * The wait ends after `BIND_WAIT_MS` or `DEADLINE_MARGIN_MS` before the call's deadline,
 * whichever is first. The binder usually answers within one watch round trip of the mark.
 */
import { Duration, Effect, Option } from "effect"
import { CallDeadline, DEADLINE_MARGIN_MS } from "../shared/CallDeadline.ts"
import type { KubeObject } from "../shared/KubeApi.ts"
import { boundNodeOf } from "../../domain/volumeBinding.ts"
import { NodeView } from "./NodeView.ts"
import { AwaitingNodeBinding } from "../shared/volumeErrors.ts"

/** How long a publish waits for the binder at most (the kubelet's retry takes over after). */
export const BIND_WAIT_MS = 10_000
/** Re-read at least this often (a re-bind that changes only labels wakes no cache waiter). */
export const POLL_MS = 100

/**
 * `read()` again until it returns an object bound to `nodeName` (`BOUND_NODE_LABEL`) that
 * `accept` also takes; fails with `AwaitingNodeBinding` when the wait is over.
 */
export const awaitBound = <E, R>(
  what: { readonly kind: string; readonly namespace: string; readonly name: string; readonly nodeName: string },
  read: Effect.Effect<Option.Option<KubeObject>, E, R>,
  accept: (object: KubeObject) => boolean = () => true
): Effect.Effect<KubeObject, E | AwaitingNodeBinding, R> =>
  Effect.gen(function*() {
    const view = yield* NodeView
    const callDeadline = yield* CallDeadline
    const started = Date.now()
    const deadline = Math.min(started + BIND_WAIT_MS, callDeadline - DEADLINE_MARGIN_MS)
    for (;;) {
      const seen = yield* view.changeCount
      const current = yield* read
      if (Option.isSome(current) && boundNodeOf(current.value) === what.nodeName && accept(current.value)) return current.value
      const left = deadline - Date.now()
      if (left <= 0) {
        return yield* new AwaitingNodeBinding({
          ...what,
          found: Option.isNone(current) ? { _tag: "Missing" } : { _tag: "Bound", to: boundNodeOf(current.value) },
          waitedMs: Date.now() - started
        })
      }
      yield* Effect.timeoutOption(view.awaitChange(seen), Duration.millis(Math.min(left, POLL_MS)))
    }
  })
