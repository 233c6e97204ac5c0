/**
 * The CSI controller programs (spec §4 "Controller service"): CreateVolume resolves the
 * volume's ListenerClass to decide whether it is pinned to the scheduler's node, and
 * freezes the listener selection into the volume context. Stateless and idempotent: the
 * same request against the same PVC gives the same volume; nothing is stored. A request
 * that waits (no such Listener or class yet, both/neither annotation) is explained on the PVC.
 */
import { Effect, Option } from "effect"
import { CsiContextKeys } from "../../domain/constants.ts"
import { Kinds } from "../../domain/kinds.ts"
import { Listener } from "../../domain/listener.ts"
import { ListenerClass } from "../../domain/listenerClass.ts"
import { PersistentVolumeClaim } from "../../domain/core/persistentVolumeClaim.ts"
import type { EventRecorder } from "../shared/EventRecorder.ts"
import type { KubeApi } from "../shared/KubeApi.ts"
import { listenerSelectionOf, selectionAnnotations } from "../shared/listenerSelection.ts"
import type { ListenerSelection } from "../shared/listenerSelection.ts"
import {
  ListenerHasNoClass,
  ListenerSelectionInvalid,
  PinningTopologyMissing,
  VolumeParameterMissing
} from "../shared/volumeErrors.ts"
import type { VolumeApiStepFailed, VolumeObjectInvalid } from "../shared/volumeErrors.ts"
import { findPersistentVolume, loadObject } from "../shared/volumeObjects.ts"
import { reportVolumeWaiting } from "../shared/volumeWaiting.ts"

/** A topology segment map, e.g. `{ "listeners.stackable.tech/hostname": "node-1" }`. */
export type Topology = Readonly<Record<string, string>>

/** The PVC a volume is provisioned for (external-provisioner `--extra-create-metadata`). */
export interface PvcRef {
  readonly namespace: string
  readonly name: string
}

export interface ProvisionVolumeRequest {
  /** The CO's volume name; it becomes the volume id verbatim. */
  readonly name: string
  /**
   * The PVC behind the volume (from the `csi.storage.k8s.io/pvc/*` parameters, see
   * `pvcRefOf`). Undefined for a "bare" volume (csi-sanity, or a provisioner without
   * `--extra-create-metadata`): it gets an empty context and no topology, and cannot be
   * published (its context names no Listener).
   */
  readonly pvc: PvcRef | undefined
  readonly requisiteTopologies: ReadonlyArray<Topology>
  /** [0] is the node the scheduler picked (WaitForFirstConsumer). */
  readonly preferredTopologies: ReadonlyArray<Topology>
}

export interface ProvisionedVolume {
  readonly volumeId: string
  readonly capacityBytes: 0
  /** The listener-* annotation of the PVC, frozen into the PV's volumeAttributes. */
  readonly volumeContext: Readonly<Record<string, string>>
  /** [] = reachable from every node; a pinned volume carries exactly one topology. */
  readonly accessibleTopology: ReadonlyArray<Topology>
}

export type ProvisionVolumeError =
  | VolumeApiStepFailed
  | VolumeObjectInvalid
  | ListenerSelectionInvalid
  | ListenerHasNoClass
  | PinningTopologyMissing

/**
 * The PVC named by CreateVolume parameters: both keys → the ref; neither → undefined
 * (a bare volume); only one → the other is missing.
 */
export const pvcRefOf = (
  parameters: Readonly<Record<string, string>>
): PvcRef | undefined | VolumeParameterMissing => {
  const name = parameters[CsiContextKeys.pvcName] ?? ""
  const namespace = parameters[CsiContextKeys.pvcNamespace] ?? ""
  if (name === "" && namespace === "") return undefined
  if (name === "") return new VolumeParameterMissing({ parameter: CsiContextKeys.pvcName })
  if (namespace === "") return new VolumeParameterMissing({ parameter: CsiContextKeys.pvcNamespace })
  return { namespace, name }
}

const loadPvc = loadObject("load PersistentVolumeClaim", Kinds.PersistentVolumeClaim, PersistentVolumeClaim)
const loadListener = loadObject("load Listener", Kinds.Listener, Listener)
const loadListenerClass = loadObject("load ListenerClass", Kinds.ListenerClass, ListenerClass)

/** The ListenerClass a volume will use: named directly, or through the named Listener's className. */
const resolveListenerClass = Effect.fn("resolveListenerClass")(function*(namespace: string, selection: ListenerSelection) {
  if (selection._tag === "ListenerClass") return yield* loadListenerClass({ name: selection.className })
  const listener = yield* loadListener({ namespace, name: selection.listenerName })
  const className = listener.spec.className
  if (className === undefined) return yield* new ListenerHasNoClass({ namespace, listener: selection.listenerName })
  return yield* loadListenerClass({ name: className })
})

/** spec §4 CreateVolume. */
export const provisionVolume: (
  request: ProvisionVolumeRequest
) => Effect.Effect<ProvisionedVolume, ProvisionVolumeError, KubeApi | EventRecorder> = Effect.fn("provisionVolume")(function*(
  request: ProvisionVolumeRequest
) {
  const bare: ProvisionedVolume = { volumeId: request.name, capacityBytes: 0, volumeContext: {}, accessibleTopology: [] }
  if (request.pvc === undefined) return bare
  const { namespace, name } = request.pvc
  const pvc = yield* loadPvc({ namespace, name })
  const subject = { apiVersion: "v1", kind: Kinds.PersistentVolumeClaim.kind, namespace, name, uid: pvc.metadata.uid }
  return yield* provisionFor(request, pvc).pipe(Effect.tapError(reportVolumeWaiting("CreateVolume", [subject])))
})

/** CreateVolume once the PVC is known (waiting failures are reported on it). */
const provisionFor = Effect.fn("provisionFor")(function*(request: ProvisionVolumeRequest, pvc: PersistentVolumeClaim) {
  const bare: ProvisionedVolume = { volumeId: request.name, capacityBytes: 0, volumeContext: {}, accessibleTopology: [] }
  const { namespace, name } = { namespace: pvc.metadata.namespace ?? "", name: pvc.metadata.name }
  const selection = listenerSelectionOf(pvc.metadata.annotations, `PersistentVolumeClaim ${namespace}/${name}`)
  if (selection instanceof ListenerSelectionInvalid) return yield* selection
  const listenerClass = yield* resolveListenerClass(namespace, selection)
  const pinned = listenerClass.spec.serviceType === "NodePort" && listenerClass.spec.pinnedNodePorts
  // The scheduler's node is the first preferred topology; csi-sanity-style callers send
  // only requisite topologies, so fall back to the first of those.
  const pinTo = request.preferredTopologies[0] ?? request.requisiteTopologies[0]
  if (pinned && pinTo === undefined) {
    return yield* new PinningTopologyMissing({ volume: request.name, listenerClass: listenerClass.metadata.name })
  }
  return {
    ...bare,
    volumeContext: selectionAnnotations(selection),
    accessibleTopology: pinned && pinTo !== undefined ? [{ ...pinTo }] : []
  } satisfies ProvisionedVolume
})

/** spec §4 DeleteVolume: a listener volume owns nothing outside the API objects that GC removes. */
export const deleteVolume = (_volumeId: string): Effect.Effect<void> => Effect.void

/** Whether a volume with this id exists (ValidateVolumeCapabilities answers NOT_FOUND otherwise): its PV. */
export const volumeExists: (volumeId: string) => Effect.Effect<boolean, VolumeApiStepFailed, KubeApi> = Effect.fn(
  "volumeExists"
)(function*(volumeId: string) {
  return Option.isSome(yield* findPersistentVolume(volumeId))
})
