/**
 * Errors raised by the CSI edge itself (not by the programs behind it): a request that
 * fails validation before any program runs, and a volume the CSI spec requires us to
 * report as unknown. Their gRPC codes are in `status.ts` with every other error's.
 */
import { Data } from "effect"

/**
 * A gRPC request that breaks the CSI contract or this driver's rules. `field` names the
 * offending request field in CSI wire spelling (`name`, `volume_capabilities[0].block`,
 * `volume_context["csi.storage.k8s.io/pod.name"]`), so the CO's error message points at it.
 */
export class InvalidRequest extends Data.TaggedError("InvalidRequest")<{
  readonly field: string
  readonly message: string
}> {}

export const invalidRequest = (field: string, problem: string): InvalidRequest =>
  new InvalidRequest({ field, message: `${field}: ${problem}` })

/** The volume a request names does not exist (ValidateVolumeCapabilities must answer NOT_FOUND). */
export class VolumeNotFound extends Data.TaggedError("VolumeNotFound")<{
  readonly volumeId: string
}> {
  override get message(): string {
    return `volume ${JSON.stringify(this.volumeId)} does not exist`
  }
}
