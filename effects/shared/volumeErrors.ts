/**
 * Typed failures of the CSI volume programs (provision, publish, unpublish).
 *
 * Each error is named after the step that failed and carries what identifies the object
 * involved plus the underlying cause. The CSI edge (`csi/status.ts`) maps each tag to one
 * gRPC code; the comment on each class says which, following spec §4:
 * bad request / volume context → INVALID_ARGUMENT; objects not there yet, API trouble, no
 * addresses yet → UNAVAILABLE (the kubelet and the provisioner retry); configuration
 * errors → FAILED_PRECONDITION; local I/O → INTERNAL.
 */
import { Data } from "effect"
import type { KubeApiError } from "./KubeApi.ts"
import type { VolumeFsError } from "./VolumeFs.ts"

const describeRef = (namespace: string | undefined, name: string): string =>
  namespace === undefined ? name : `${namespace}/${name}`

// ---------------------------------------------------------------- INVALID_ARGUMENT

/** A required CreateVolume parameter is missing or empty. → INVALID_ARGUMENT */
export class VolumeParameterMissing extends Data.TaggedError("VolumeParameterMissing")<{
  readonly parameter: string
}> {
  override get message(): string {
    return `CreateVolume parameter ${JSON.stringify(this.parameter)} is missing; ` +
      "run the external provisioner with --extra-create-metadata"
  }
}

/**
 * A listener volume names both `listener-name` and `listener-class`, or neither
 * (on the PVC at provisioning, or in the frozen volume context at publishing). → INVALID_ARGUMENT
 */
export class ListenerSelectionInvalid extends Data.TaggedError("ListenerSelectionInvalid")<{
  /** What was inspected: "PersistentVolumeClaim ns/name" or "volume context of volume-id". */
  readonly source: string
  readonly problem: "both" | "neither"
}> {
  override get message(): string {
    return this.problem === "both"
      ? `${this.source} has both listeners.stackable.tech/listener-name and listeners.stackable.tech/listener-class; exactly one is allowed`
      : `${this.source} has neither listeners.stackable.tech/listener-name nor listeners.stackable.tech/listener-class; exactly one is required`
  }
}

// ---------------------------------------------------------------- UNAVAILABLE

/** The API refused or failed a read or write during a step (including NotFound: "not yet"). → UNAVAILABLE */
export class VolumeApiStepFailed extends Data.TaggedError("VolumeApiStepFailed")<{
  /** The step, e.g. "load PersistentVolume", "apply Listener", "label Pod". */
  readonly step: string
  readonly kind: string
  readonly namespace?: string | undefined
  readonly name: string
  readonly cause: KubeApiError
}> {
  override get message(): string {
    return `${this.step} ${describeRef(this.namespace, this.name)}: ${this.cause.reason}: ${this.cause.message}`
  }
}

/** The Listener has no addresses for this Pod yet (Service not ready, no node ports, no ingress). → UNAVAILABLE */
export class ListenerAddressesNotReady extends Data.TaggedError("ListenerAddressesNotReady")<{
  readonly namespace: string
  readonly listener: string
  /** What is missing: the Listener's own addresses, its node ports, or a usable address of the Pod's node. */
  readonly awaiting: "ListenerAddresses" | "NodePorts" | "NodeAddress"
  readonly problem: string
  /**
   * NodeAddress only: the address types the Listener's class accepts, in its order of
   * preference, and where that order comes from — what the Node must offer.
   */
  readonly acceptedAddressTypes?: {
    readonly listenerClass: string
    readonly types: ReadonlyArray<string>
    readonly source: "nodeAddressTypes" | "preferredAddressType"
  } | undefined
}> {
  override get message(): string {
    return `Listener ${this.namespace}/${this.listener} has no addresses yet: ${this.problem}`
  }
}

/** A NodePort listener volume's Pod is not bound to a node yet, so its node address is unknown. → UNAVAILABLE */
export class PodNotScheduled extends Data.TaggedError("PodNotScheduled")<{
  readonly namespace: string
  readonly pod: string
}> {
  override get message(): string {
    return `Pod ${this.namespace}/${this.pod} has no spec.nodeName yet`
  }
}

/**
 * The object the node plugin is to update (the Pod's PodListeners, the volume's per-volume
 * Listener) is not bound to the Pod's node yet: the controller's volume binder creates and
 * binds it once it sees the Pod marked (effects/controller/bindPodVolumes.ts). → UNAVAILABLE
 */
export class AwaitingNodeBinding extends Data.TaggedError("AwaitingNodeBinding")<{
  readonly kind: string
  readonly namespace: string
  readonly name: string
  readonly nodeName: string
  /** What the publish found: nothing, or the node it is bound to (undefined: no binding). */
  readonly found: { readonly _tag: "Missing" } | { readonly _tag: "Bound"; readonly to: string | undefined }
  readonly waitedMs: number
}> {
  override get message(): string {
    const found = this.found._tag === "Missing" ? "does not exist yet" : this.found.to === undefined ? "carries no binding yet" : `is bound to node ${this.found.to}`
    return `${this.kind} ${this.namespace}/${this.name} ${found}; the controller binds it to node ${this.nodeName} (listeners.stackable.tech/bound-node) once it sees the Pod marked (waited ${Math.round(this.waitedMs)} ms)`
  }
}

// ---------------------------------------------------------------- FAILED_PRECONDITION

/** An object read from the API does not have the shape this driver needs. → FAILED_PRECONDITION */
export class VolumeObjectInvalid extends Data.TaggedError("VolumeObjectInvalid")<{
  readonly kind: string
  readonly namespace?: string | undefined
  readonly name: string
  readonly problem: string
  readonly cause?: unknown
}> {
  override get message(): string {
    return `${this.kind} ${describeRef(this.namespace, this.name)} is not usable: ${this.problem}`
  }
}

/** The Listener a volume binds to names no ListenerClass. → FAILED_PRECONDITION */
export class ListenerHasNoClass extends Data.TaggedError("ListenerHasNoClass")<{
  readonly namespace: string
  readonly listener: string
}> {
  override get message(): string {
    return `Listener ${this.namespace}/${this.listener} has no spec.className`
  }
}

/**
 * An inline CSI volume (`Pod.spec.volumes[].csi`): it has no PVC and no PV, so there is
 * nothing to read the listener selection from or to own the Listener. → FAILED_PRECONDITION
 */
export class InlineVolumeUnsupported extends Data.TaggedError("InlineVolumeUnsupported")<{
  readonly volumeId: string
}> {
  override get message(): string {
    return `volume ${this.volumeId} is an inline CSI volume (volumes[].csi); listener volumes must be PVCs ` +
      "(volumeClaimTemplates, persistentVolumeClaim or a generic ephemeral volume)"
  }
}

/** The PV of a volume has no claimRef (not bound), or its CSI handle does not match. → FAILED_PRECONDITION */
export class VolumeNotBound extends Data.TaggedError("VolumeNotBound")<{
  readonly volumeId: string
  readonly problem: string
}> {
  override get message(): string {
    return `volume ${this.volumeId}: ${this.problem}`
  }
}

/**
 * The Pod of that name is another instance than the one being mounted (it was deleted and
 * re-created, e.g. a StatefulSet replica): its labels and PodListeners must not be written
 * for the old one. → FAILED_PRECONDITION
 */
export class PodReplaced extends Data.TaggedError("PodReplaced")<{
  readonly namespace: string
  readonly pod: string
  readonly expectedUid: string
  readonly actualUid: string
}> {
  override get message(): string {
    return `Pod ${this.namespace}/${this.pod} is uid ${this.actualUid} now, not the uid ${this.expectedUid} being mounted`
  }
}

/**
 * The Pod is being deleted (it has a deletionTimestamp). The kubelet publishes volumes only
 * for Pods that are to start, so this is a retry that lost the race with the deletion, or
 * the address refresh of a Pod on its way out: nothing is written for it — no labels, no
 * PodListeners, no tree; a tree already at the target stays as it is for the containers
 * still shutting down, until NodeUnpublishVolume removes it. → FAILED_PRECONDITION
 */
export class PodTerminating extends Data.TaggedError("PodTerminating")<{
  readonly namespace: string
  readonly pod: string
  readonly deletionTimestamp: string
}> {
  override get message(): string {
    return `Pod ${this.namespace}/${this.pod} is being deleted (deletionTimestamp ${this.deletionTimestamp}): nothing is published for it`
  }
}

/** The Pod has no volume that uses the volume's PVC. → FAILED_PRECONDITION */
export class PodVolumeNotFound extends Data.TaggedError("PodVolumeNotFound")<{
  readonly namespace: string
  readonly pod: string
  readonly claim: string
}> {
  override get message(): string {
    return `Pod ${this.namespace}/${this.pod} has no persistentVolumeClaim or ephemeral volume for PVC ${this.claim}`
  }
}

/** A NodePort volume's pinning needs a topology, but the CreateVolume request offered none. → INVALID_ARGUMENT */
export class PinningTopologyMissing extends Data.TaggedError("PinningTopologyMissing")<{
  readonly volume: string
  readonly listenerClass: string
}> {
  override get message(): string {
    return `volume ${this.volume} uses the pinned NodePort class ${this.listenerClass} but the request has no ` +
      "accessibility_requirements (preferred or requisite) to pin it to"
  }
}

/**
 * An address (or port name) from the Listener would not be a safe directory/file name in the
 * volume (`..`, `/`, NUL, not an IP or DNS name); nothing was written. → FAILED_PRECONDITION
 */
export class VolumeAddressRefused extends Data.TaggedError("VolumeAddressRefused")<{
  readonly namespace: string
  readonly listener: string
  readonly field: string
  readonly value: string
  readonly problem: string
}> {
  override get message(): string {
    return `Listener ${this.namespace}/${this.listener}: refusing to write ${this.field} ${JSON.stringify(this.value)} ` +
      `into the volume: it ${this.problem}`
  }
}

/**
 * The directory that should hold the target path does not exist (or is not a directory):
 * the CO creates it before NodePublishVolume (the kubelet: `…/volumes/kubernetes.io~csi/<pv>`),
 * so this is a confused caller, not trouble on the node. → FAILED_PRECONDITION
 */
export class TargetParentMissing extends Data.TaggedError("TargetParentMissing")<{
  readonly targetPath: string
  readonly parent: string
}> {
  override get message(): string {
    return `target_path: the directory ${JSON.stringify(this.parent)} that holds ${JSON.stringify(this.targetPath)} ` +
      `does not exist or is not a directory: the CO must create it before NodePublishVolume`
  }
}

// ---------------------------------------------------------------- INTERNAL

/** Preparing, swapping in or removing the volume's file tree failed on this node. → INTERNAL */
export class VolumeTreeWriteFailed extends Data.TaggedError("VolumeTreeWriteFailed")<{
  readonly targetPath: string
  /** The step, e.g. "prepare tree", "swap in tree", "remove target". */
  readonly step: string
  readonly cause: VolumeFsError
}> {
  override get message(): string {
    return `${this.step} at ${this.targetPath}: ${this.cause.reason}: ${this.cause.message}`
  }
}

/** Every tag the volume programs can fail with; `csi/status.ts` must map each one. */
export type VolumeError =
  | VolumeParameterMissing
  | ListenerSelectionInvalid
  | PinningTopologyMissing
  | VolumeApiStepFailed
  | ListenerAddressesNotReady
  | PodNotScheduled
  | AwaitingNodeBinding
  | VolumeObjectInvalid
  | ListenerHasNoClass
  | InlineVolumeUnsupported
  | VolumeNotBound
  | PodReplaced
  | PodTerminating
  | PodVolumeNotFound
  | VolumeAddressRefused
  | TargetParentMissing
  | VolumeTreeWriteFailed

/** The gRPC code each tag maps to (spec §4), as data the CSI edge can check its table against. */
export const volumeErrorCodes = {
  VolumeParameterMissing: "INVALID_ARGUMENT",
  ListenerSelectionInvalid: "INVALID_ARGUMENT",
  PinningTopologyMissing: "INVALID_ARGUMENT",
  VolumeApiStepFailed: "UNAVAILABLE",
  ListenerAddressesNotReady: "UNAVAILABLE",
  PodNotScheduled: "UNAVAILABLE",
  AwaitingNodeBinding: "UNAVAILABLE",
  VolumeObjectInvalid: "FAILED_PRECONDITION",
  ListenerHasNoClass: "FAILED_PRECONDITION",
  InlineVolumeUnsupported: "FAILED_PRECONDITION",
  VolumeNotBound: "FAILED_PRECONDITION",
  PodReplaced: "FAILED_PRECONDITION",
  PodTerminating: "FAILED_PRECONDITION",
  PodVolumeNotFound: "FAILED_PRECONDITION",
  VolumeAddressRefused: "FAILED_PRECONDITION",
  TargetParentMissing: "FAILED_PRECONDITION",
  VolumeTreeWriteFailed: "INTERNAL"
} as const satisfies Record<VolumeError["_tag"], "INVALID_ARGUMENT" | "UNAVAILABLE" | "FAILED_PRECONDITION" | "INTERNAL">
