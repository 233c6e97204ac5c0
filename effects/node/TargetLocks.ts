/**
 * One lock per CSI target path on this node. NodePublishVolume, NodeUnpublishVolume and
 * the live address refresh (addressRefresh.ts) each hold the lock of a target for all
 * their work on it — the API reads, the file tree and the published-volume record — so:
 *
 * - a refresh pass that overlaps the kubelet's NodeUnpublishVolume cannot re-create the
 *   target (or its record) after the kubelet removed it: it either finishes before the
 *   removal starts, or starts after it and finds the record gone;
 * - two writers of one target never meet on its staging directory, its `..data_tmp`
 *   link or a version number (writeVolumeTree.ts assumes a single writer).
 *
 * Work on different targets runs in parallel. An entry exists only while its target has
 * a holder or a waiter, so the map does not grow with the volumes a node ever published.
 */
import { Context, Effect, Layer } from "effect"
import { makeKeyedLock } from "../shared/keyedLock.ts"

export class TargetLocks extends Context.Service<TargetLocks, {
  /** Run `effect` holding the lock of `targetPath`, waiting while another fiber holds it. Never fails by itself. */
  withTarget(targetPath: string): <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** How many target paths have a holder or a waiter right now (tests: released entries are removed). */
  readonly inUse: Effect.Effect<number>
}>()("listener-operator/effects/TargetLocks") {
  /** A fresh set of locks; the node role provides one to its publisher and its refresh loop alike. */
  static readonly layer: Layer.Layer<TargetLocks> = Layer.sync(TargetLocks, () => {
    const lock = makeKeyedLock()
    return TargetLocks.of({ withTarget: lock.withLock, inUse: lock.size })
  })
}
