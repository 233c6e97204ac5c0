/**
 * The CSI edge's program services (`programs.ts`) implemented by the volume programs of
 * `effects/`: the layers the controller role (VolumeProvisioner) and the node role
 * (VolumePublisher) compose over their KubeApi / VolumeFs adapters. The programs' typed
 * errors (`effects/volumeErrors.ts`) pass through unchanged; `status.ts` maps each tag.
 */
import { Effect, Layer } from "effect"
import type { EventRecorder } from "../effects/EventRecorder.ts"
import type { KubeApi } from "../effects/KubeApi.ts"
import { deleteVolume, provisionVolume, volumeExists } from "../effects/provisionVolume.ts"
import { publishAndRemember, unpublishAndForget } from "../effects/publishedTargets.ts"
import type { PublishedVolumes } from "../effects/publishedVolumes.ts"
import type { TargetLocks } from "../effects/targetLocks.ts"
import type { VolumeFs } from "../effects/VolumeFs.ts"
import { VolumeProvisioner, VolumePublisher } from "./programs.ts"

/** CreateVolume / DeleteVolume / volume existence over the Kubernetes API; waiting is explained on the PVC. */
export const VolumeProvisionerLive: Layer.Layer<VolumeProvisioner, never, KubeApi | EventRecorder> = Layer.effect(
  VolumeProvisioner,
  Effect.gen(function*() {
    const context = yield* Effect.context<KubeApi | EventRecorder>()
    return VolumeProvisioner.of({
      createVolume: (input) => Effect.provideContext(provisionVolume(input), context),
      deleteVolume: (volumeId) => deleteVolume(volumeId),
      volumeExists: (volumeId) => Effect.provideContext(volumeExists(volumeId), context)
    })
  })
)

/**
 * NodePublishVolume / NodeUnpublishVolume over the Kubernetes API and the volume
 * filesystem; a publish that waits is explained on the Pod and PVC through EventRecorder.
 * Each call holds its target's lock (the same TargetLocks the address refresh uses) and
 * keeps the published-volume record in step (effects/publishedTargets.ts).
 */
export const VolumePublisherLive: Layer.Layer<
  VolumePublisher,
  never,
  KubeApi | VolumeFs | EventRecorder | PublishedVolumes | TargetLocks
> = Layer.effect(
  VolumePublisher,
  Effect.gen(function*() {
    const context = yield* Effect.context<KubeApi | VolumeFs | EventRecorder | PublishedVolumes | TargetLocks>()
    return VolumePublisher.of({
      publish: (input) => Effect.provideContext(Effect.asVoid(publishAndRemember(input)), context),
      unpublish: (input) => Effect.provideContext(unpublishAndForget(input), context)
    })
  })
)
