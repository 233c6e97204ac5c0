/**
 * The CSI edge's program services (`programs.ts`) implemented by the volume programs of
 * `effects/`: the layers the controller role (VolumeProvisioner) and the node role
 * (VolumePublisher) compose over their KubeApi / VolumeFs adapters. The programs' typed
 * errors (`effects/shared/volumeErrors.ts`) pass through unchanged; `status.ts` maps each tag.
 */
import { Effect, Layer } from "effect"
import type { EventRecorder } from "../effects/shared/EventRecorder.ts"
import type { KubeApi } from "../effects/shared/KubeApi.ts"
import { deleteVolume, provisionVolume, volumeExists } from "../effects/provisioner/provisionVolume.ts"
import { publishAndRemember, unpublishAndForget } from "../effects/node/nodeCalls.ts"
import type { PublishedVolumes } from "../effects/node/PublishedVolumes.ts"
import type { TargetLocks } from "../effects/node/TargetLocks.ts"
import type { VolumeFs } from "../effects/shared/VolumeFs.ts"
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
 * keeps the published-volume record in step (effects/node/nodeCalls.ts).
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
