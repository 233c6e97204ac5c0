/**
 * The CSI Controller service: decodes each request (`requests.ts`), calls the provisioning
 * program (`VolumeProvisioner`) and encodes its answer. No Kubernetes logic lives here.
 */
import { Effect } from "effect"
import { VolumeNotFound } from "./errors.ts"
import { VolumeProvisioner } from "./programs.ts"
import type { ProvisionedVolume } from "./programs.ts"
import type { ControllerGetCapabilitiesResponse, CreateVolumeResponse, ValidateVolumeCapabilitiesRequest, ValidateVolumeCapabilitiesResponse } from "./proto.ts"
import { decodeCreateVolume, decodeDeleteVolume, decodeValidateVolumeCapabilities } from "./requests.ts"
import type { ValidateVolumeCapabilitiesInput } from "./requests.ts"
import type { ControllerService } from "./server.ts"

export const controllerCapabilities: ControllerGetCapabilitiesResponse = {
  capabilities: [{ rpc: { type: "CREATE_DELETE_VOLUME" } }]
}

export const encodeVolume = (volume: ProvisionedVolume): CreateVolumeResponse => ({
  volume: {
    // Listener volumes hold a few small files; 0 tells the CO the size is unknown, and the
    // provisioner then records the requested size on the PV.
    capacity_bytes: 0,
    volume_id: volume.volumeId,
    volume_context: { ...volume.volumeContext },
    accessible_topology: volume.accessibleTopology.map((segments) => ({ segments: { ...segments } }))
  }
})

/** Confirmed echoes what the CO asked to validate; otherwise the message says why not. */
export const encodeValidation = (
  request: ValidateVolumeCapabilitiesRequest,
  input: ValidateVolumeCapabilitiesInput
): ValidateVolumeCapabilitiesResponse =>
  input.unsupported.length === 0
    ? {
      confirmed: {
        volume_context: { ...request.volume_context },
        volume_capabilities: request.volume_capabilities ?? [],
        parameters: { ...request.parameters },
        mutable_parameters: { ...request.mutable_parameters }
      },
      message: ""
    }
    : { confirmed: null, message: input.unsupported.join("; ") }

export const makeControllerService: Effect.Effect<ControllerService, never, VolumeProvisioner> = Effect.gen(function*() {
  const provisioner = yield* VolumeProvisioner
  return {
    name: "Controller",
    handlers: {
      CreateVolume: (request) =>
        decodeCreateVolume(request).pipe(Effect.flatMap(provisioner.createVolume), Effect.map(encodeVolume)),
      DeleteVolume: (request) =>
        decodeDeleteVolume(request).pipe(Effect.flatMap(provisioner.deleteVolume), Effect.as({})),
      ValidateVolumeCapabilities: (request) =>
        Effect.gen(function*() {
          const input = yield* decodeValidateVolumeCapabilities(request)
          if (!(yield* provisioner.volumeExists(input.volumeId))) {
            return yield* new VolumeNotFound({ volumeId: input.volumeId })
          }
          return encodeValidation(request, input)
        }),
      ControllerGetCapabilities: () => Effect.succeed(controllerCapabilities)
    }
  }
})
