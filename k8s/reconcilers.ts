/**
 * The controller role's reconcile loops: the Listener controller, the node-loss controller
 * and the volume binder (k8s/volumeBinder.ts), run together under one optional leader election — the one place a lease is
 * taken.
 *
 * Both controllers' caches start when this runs, on every replica, so a standby that wins
 * the lease reconciles from warm caches; only the lease holder reconciles. When it loses
 * the lease both loops are interrupted together and the caches keep running; when this is
 * interrupted (shutdown) the lease is released (k8s/runtime/leaderElection.ts).
 */
import { Effect } from "effect"
import type { EventRecorder } from "../effects/shared/EventRecorder.ts"
import type { KubeApi } from "../effects/shared/KubeApi.ts"
import { makeListenerController } from "./listenerController.ts"
import type { ListenerControllerOptions } from "./listenerController.ts"
import { makeNodeLossController } from "./nodeLossController.ts"
import { makeVolumeBinder } from "./volumeBinder.ts"
import { runWhileLeading } from "./runtime/leaderElection.ts"
import type { LeaderElectionConfig } from "./runtime/leaderElection.ts"

export interface ReconcilersOptions {
  /** Reconcile only while holding this Lease (omit for a single replica, tests, the demo). */
  readonly leaderElection?: LeaderElectionConfig | undefined
  readonly listener?: ListenerControllerOptions | undefined
}

/** Builds both controllers and reconciles (while leading, with `leaderElection`) until interrupted. */
export const runReconcilers = (
  options: ReconcilersOptions = {}
): Effect.Effect<never, never, KubeApi | EventRecorder> =>
  Effect.scoped(Effect.gen(function*() {
    const listeners = yield* makeListenerController
    const nodeLoss = yield* makeNodeLossController
    const binder = yield* makeVolumeBinder
    const loops = Effect.andThen(
      Effect.all([listeners.run(options.listener), nodeLoss.run, binder.run], { concurrency: "unbounded", discard: true }),
      Effect.never
    )
    return yield* options.leaderElection === undefined ? loops : runWhileLeading(options.leaderElection, loops)
  }))
