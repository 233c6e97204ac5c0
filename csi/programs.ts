/**
 * The contract between the CSI edge and the volume programs: the typed inputs the edge
 * decodes from gRPC requests (see `requests.ts`), the two services the programs
 * implement, and the errors they may fail with. This file imports only `effect`,
 * `domain/` and `effects/`, so it can move to `effects/` unchanged (only import paths
 * change).
 *
 * The programs own the behaviour of spec §4; the edge owns validation, encoding and the
 * error → gRPC status table (`status.ts`), which must name every tag of `ProgramError`.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { UnsafeVolumeEntry } from "../domain/volumeTree.ts"
import type { KubeApiError } from "../effects/shared/KubeApi.ts"
import type { ListenerSelection } from "../effects/shared/listenerSelection.ts"
import type { PvcRef, Topology } from "../effects/provisioner/provisionVolume.ts"
import type { VolumeError } from "../effects/shared/volumeErrors.ts"
import type { VolumeFsError } from "../effects/shared/VolumeFs.ts"
import type { AccessModeName } from "./proto.ts"

// The programs' own types, named here for the edge.
export type { ListenerSelection, PvcRef, Topology }

/** CSI access modes this driver accepts (all defined ones except UNKNOWN). */
export type AccessMode = Exclude<AccessModeName, "UNKNOWN">

/** A filesystem ("mount") volume capability; block volumes are refused at the edge. */
export interface MountCapability {
  readonly accessMode: AccessMode
  /** As the CO sent it (often ""); the volume is a plain directory tree, so it is informational. */
  readonly fsType: string
  readonly mountFlags: ReadonlyArray<string>
}

export interface CreateVolumeInput {
  /** The CO's volume name (`pvc-<uid>`); spec §4: it is also the volume id. */
  readonly name: string
  /** Non-empty; every entry already checked to be a mount capability with a supported mode. */
  readonly capabilities: ReadonlyArray<MountCapability>
  /**
   * Absent when the request carries neither `csi.storage.k8s.io/pvc/name` nor
   * `.../pvc/namespace` (csi-sanity, or a provisioner without `--extra-create-metadata`).
   * Decision: such a "bare" volume is provisioned with an empty volume context and no
   * topology, so conformance tests can create/delete/validate volumes; publishing it
   * later fails with INVALID_ARGUMENT because the context names no listener.
   */
  readonly pvc: PvcRef | undefined
  /** All request parameters verbatim (StorageClass parameters + provisioner metadata). */
  readonly parameters: Readonly<Record<string, string>>
  /** `accessibility_requirements.requisite`, in request order ([] when absent). */
  readonly requisiteTopologies: ReadonlyArray<Topology>
  /** `accessibility_requirements.preferred`, in request order; [0] is the scheduler's node. */
  readonly preferredTopologies: ReadonlyArray<Topology>
}

export interface ProvisionedVolume {
  readonly volumeId: string
  /** Frozen into the PV's volumeAttributes; spec §4: the PVC's annotations. */
  readonly volumeContext: Readonly<Record<string, string>>
  /** [] = reachable from every node; pinned volumes carry exactly one topology. */
  readonly accessibleTopology: ReadonlyArray<Topology>
}

export interface PodRef {
  readonly namespace: string
  readonly name: string
  /** `csi.storage.k8s.io/pod.uid` when the kubelet sent it. */
  readonly uid: string | undefined
}

export interface PublishVolumeInput {
  readonly volumeId: string
  /** Absolute, normalised, never "/"; the publisher creates it (the CO creates only the parent). */
  readonly targetPath: string
  readonly readonly: boolean
  readonly capability: MountCapability
  readonly pod: PodRef
  /** From the frozen volume context (PVC annotations), already checked: exactly one, a valid name. */
  readonly listener: ListenerSelection
  /** The whole volume context verbatim (PVC annotations + pod info + provisioner identity). */
  readonly volumeContext: Readonly<Record<string, string>>
}

export interface UnpublishVolumeInput {
  readonly volumeId: string
  /** Same rules as `PublishVolumeInput.targetPath`; a missing path is success. */
  readonly targetPath: string
}

// ---- Errors ---------------------------------------------------------------------------

/**
 * Everything the programs may fail with: the step-named errors of `effects/shared/volumeErrors.ts`
 * plus raw port errors. `status.ts` must give every tag a gRPC code, or its `satisfies`
 * stops compiling.
 */
export type ProgramError =
  | VolumeError
  | KubeApiError
  | VolumeFsError
  | UnsafeVolumeEntry

// ---- Services -------------------------------------------------------------------------

/** The controller-side program (spec §4 "Controller service"). */
export class VolumeProvisioner extends Context.Service<VolumeProvisioner, {
  /** Idempotent: the same input gives the same volume. */
  createVolume(input: CreateVolumeInput): Effect.Effect<ProvisionedVolume, ProgramError>
  /** Idempotent: an unknown id is success. */
  deleteVolume(volumeId: string): Effect.Effect<void, ProgramError>
  /** For ValidateVolumeCapabilities, which must answer NOT_FOUND for an unknown volume. */
  volumeExists(volumeId: string): Effect.Effect<boolean, ProgramError>
}>()("listener-operator/effects/VolumeProvisioner") {}

/** The node-side program (spec §4 "Node service"). */
export class VolumePublisher extends Context.Service<VolumePublisher, {
  /** The seven steps of spec §4; publishing again converges to the same state. */
  publish(input: PublishVolumeInput): Effect.Effect<void, ProgramError>
  /** Remove the target path; already gone is success. */
  unpublish(input: UnpublishVolumeInput): Effect.Effect<void, ProgramError>
}>()("listener-operator/effects/VolumePublisher") {}
