/**
 * NodePublishVolume and NodeUnpublishVolume as the node plugin runs them: each holds the
 * lock of its target path (TargetLocks.ts) for the whole call, and keeps the record of
 * published volumes (PublishedVolumes.ts) that the address refresh works from in step with
 * the target. The refresh (addressRefresh.ts) takes the same lock, so a target and its
 * record change only in one of these three places at a time.
 */
import { Effect } from "effect"
import type { EventRecorder } from "../shared/EventRecorder.ts"
import type { KubeApi } from "../shared/KubeApi.ts"
import { unlabelListener } from "./listenerNodeLabel.ts"
import { NodeView } from "./NodeView.ts"
import { PublishedVolumes } from "./PublishedVolumes.ts"
import { publishVolume } from "./publishVolume.ts"
import type { PublishedVolume, PublishVolumeError, PublishVolumeRequest } from "./publishSteps.ts"
import { TargetLocks } from "./TargetLocks.ts"
import { unpublishVolume } from "./unpublishVolume.ts"
import type { UnpublishVolumeRequest } from "./unpublishVolume.ts"
import type { VolumeFs } from "../shared/VolumeFs.ts"
import type { VolumeTreeWriteFailed } from "../shared/volumeErrors.ts"

/** Publish, then remember the volume for the address refresh. */
export const publishAndRemember = (
  request: PublishVolumeRequest
): Effect.Effect<PublishedVolume, PublishVolumeError, KubeApi | VolumeFs | EventRecorder | PublishedVolumes | TargetLocks> =>
  Effect.gen(function*() {
    const locks = yield* TargetLocks
    const registry = yield* PublishedVolumes
    return yield* locks.withTarget(request.targetPath)(Effect.gen(function*() {
      const published = yield* publishVolume(request)
      yield* registry.record({
        request,
        listener: published.listener,
        addresses: published.addresses,
        podVolume: { name: published.podVolumeName, scope: published.scope }
      })
      // The addresses were read from the caches before the record existed: a change that
      // arrived meanwhile found no volume to refresh. Check this Listener again now.
      const view = yield* NodeView
      yield* view.recheck({ _tag: "Listener", ...published.listener })
      return published
    }))
  })

/**
 * Forget the volume, then remove its target. Forgotten first: should the removal fail, the
 * kubelet retries the unpublish, and meanwhile no refresh re-writes a target being removed.
 * The node's last volume of a Listener takes this node's label off it (listenerNodeLabel.ts),
 * so the node's watch stops carrying it.
 */
export const unpublishAndForget = (
  request: UnpublishVolumeRequest
): Effect.Effect<void, VolumeTreeWriteFailed, KubeApi | VolumeFs | PublishedVolumes | TargetLocks> =>
  Effect.gen(function*() {
    const locks = yield* TargetLocks
    const registry = yield* PublishedVolumes
    const record = yield* locks.withTarget(request.targetPath)(Effect.gen(function*() {
      const record = yield* registry.get(request.targetPath)
      yield* registry.forget(request.targetPath)
      yield* unpublishVolume(request)
      return record
    }))
    if (record === undefined || (yield* NodeView).nodeName === undefined) return
    const { namespace, name } = record.listener
    const others = (yield* registry.all).some((other) => other.listener.namespace === namespace && other.listener.name === name)
    if (!others) yield* unlabelListener(record.listener)
  })
