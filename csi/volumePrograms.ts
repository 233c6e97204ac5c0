/**
 * The CSI edge's program services (`programs.ts`) implemented by the volume programs of
 * `effects/`: the layers the controller role (VolumeProvisioner) and the node role
 * (VolumePublisher) compose over their KubeApi / VolumeFs adapters.
 *
 * Error bridge: the programs fail with the step-named tags of `effects/volumeErrors.ts`;
 * until `programs.ts`/`status.ts` name those tags directly, each is carried as the
 * `ProgramError` that `status.ts` maps to the same gRPC code (`volumeErrorCodes`), with
 * the program error's whole message. API failures stay `KubeApiError`s (code by reason),
 * local I/O stays a `VolumeFsError` (INTERNAL).
 */
import { Effect, Layer } from "effect"
import type { KubeApi } from "../effects/KubeApi.ts"
import { KubeApiError } from "../effects/KubeApi.ts"
import { deleteVolume, provisionVolume, volumeExists } from "../effects/provisionVolume.ts"
import { publishVolume } from "../effects/publishVolume.ts"
import { unpublishVolume } from "../effects/unpublishVolume.ts"
import type { VolumeFs } from "../effects/VolumeFs.ts"
import { VolumeFsError } from "../effects/VolumeFs.ts"
import { volumeErrorCodes } from "../effects/volumeErrors.ts"
import type { VolumeError } from "../effects/volumeErrors.ts"
import {
  ListenerAddressesPending,
  ListenerClassUnresolved,
  ListenerVolumeAnnotationsInvalid,
  VolumeProvisioner,
  VolumePublisher
} from "./programs.ts"
import type { ProgramError, ProvisionError } from "./programs.ts"
import type { ProvisionVolumeError } from "../effects/provisionVolume.ts"

/** The `ProgramError` that answers with the same gRPC code and message as `error`. */
export const toProgramError = (error: VolumeError): ProgramError => {
  switch (error._tag) {
    case "VolumeApiStepFailed":
      return new KubeApiError({ ...error.cause, message: error.message, cause: error.cause })
    case "VolumeTreeWriteFailed":
      return new VolumeFsError({ ...error.cause, message: error.message, cause: error.cause })
  }
  const code = volumeErrorCodes[error._tag]
  switch (code) {
    case "INVALID_ARGUMENT":
      return new ListenerVolumeAnnotationsInvalid({ namespace: "", pvc: "", message: error.message })
    case "FAILED_PRECONDITION":
      return new ListenerClassUnresolved({ namespace: "", listener: "", message: error.message })
    case "UNAVAILABLE":
      return new ListenerAddressesPending({ namespace: "", listener: "", message: error.message })
  }
}

/** The same for the provisioning program, whose failures all fit `ProvisionError`. */
export const toProvisionError = (error: ProvisionVolumeError): ProvisionError => {
  switch (error._tag) {
    case "VolumeApiStepFailed":
      return new KubeApiError({ ...error.cause, message: error.message, cause: error.cause })
    case "ListenerSelectionInvalid":
    case "PinningTopologyMissing":
      return new ListenerVolumeAnnotationsInvalid({ namespace: "", pvc: "", message: error.message })
    case "VolumeObjectInvalid":
    case "ListenerHasNoClass":
      return new ListenerClassUnresolved({ namespace: "", listener: "", message: error.message })
  }
}

/** CreateVolume / DeleteVolume / volume existence over the Kubernetes API. */
export const VolumeProvisionerLive: Layer.Layer<VolumeProvisioner, never, KubeApi> = Layer.effect(
  VolumeProvisioner,
  Effect.gen(function*() {
    const context = yield* Effect.context<KubeApi>()
    const run = <A>(effect: Effect.Effect<A, ProvisionVolumeError, KubeApi>) =>
      effect.pipe(Effect.mapError(toProvisionError), Effect.provideContext(context))
    return VolumeProvisioner.of({
      createVolume: (input) => run(provisionVolume(input)),
      deleteVolume: (volumeId) => deleteVolume(volumeId),
      volumeExists: (volumeId) => run(volumeExists(volumeId))
    })
  })
)

/** NodePublishVolume / NodeUnpublishVolume over the Kubernetes API and the volume filesystem. */
export const VolumePublisherLive: Layer.Layer<VolumePublisher, never, KubeApi | VolumeFs> = Layer.effect(
  VolumePublisher,
  Effect.gen(function*() {
    const context = yield* Effect.context<KubeApi | VolumeFs>()
    const run = <A>(effect: Effect.Effect<A, VolumeError, KubeApi | VolumeFs>) =>
      effect.pipe(Effect.mapError(toProgramError), Effect.provideContext(context))
    return VolumePublisher.of({
      publish: (input) => Effect.asVoid(run(publishVolume(input))),
      unpublish: (input) => run(unpublishVolume(input))
    })
  })
)
