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
import { publishVolume } from "../effects/publishVolume.ts"
import { unpublishVolume } from "../effects/unpublishVolume.ts"
import { PublishedVolumes } from "../effects/publishedVolumes.ts"
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
 */
export const VolumePublisherLive: Layer.Layer<VolumePublisher, never, KubeApi | VolumeFs | EventRecorder | PublishedVolumes> = Layer.effect(
  VolumePublisher,
  Effect.gen(function*() {
    const context = yield* Effect.context<KubeApi | VolumeFs | EventRecorder | PublishedVolumes>()
    const registry = yield* PublishedVolumes
    return VolumePublisher.of({
      // Each published volume is remembered for the address refresh (effects/refreshVolumes.ts).
      publish: (input) =>
        Effect.provideContext(
          Effect.flatMap(publishVolume(input), (published) =>
            registry.record({ request: input, listener: published.listener, addresses: published.addresses })),
          context
        ),
      unpublish: (input) => Effect.provideContext(Effect.andThen(unpublishVolume(input), registry.forget(input.targetPath)), context)
    })
  })
)
