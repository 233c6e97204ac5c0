/**
 * Request decoding: turns the raw gRPC request objects into the typed inputs of
 * `programs.ts`, before anything else runs. Every refusal is an `InvalidRequest` naming
 * the offending field in CSI wire spelling (the status table turns it into
 * INVALID_ARGUMENT), except an inline CSI volume, which is refused with the programs'
 * own `InlineVolumeUnsupported`.
 *
 * Order matters where the CSI spec and csi-sanity look at it: NodePublishVolume checks
 * `volume_id`, `target_path`, `volume_capability` first, in that order, before it looks at
 * the volume context.
 */
import { Effect } from "effect"
import { CsiContextKeys, PVC_ANNOTATION_LISTENER_CLASS, PVC_ANNOTATION_LISTENER_NAME } from "../domain/constants.ts"
import { DNS_LABEL_PATTERN, isObjectName } from "../domain/fields.ts"
import { listenerSelectionOf } from "../effects/shared/listenerSelection.ts"
import type { ListenerSelection } from "../effects/shared/listenerSelection.ts"
import { InlineVolumeUnsupported } from "../effects/shared/volumeErrors.ts"
import { invalidRequest } from "./errors.ts"
import type { InvalidRequest } from "./errors.ts"
import type {
  AccessMode,
  CreateVolumeInput,
  MountCapability,
  PublishVolumeInput,
  PvcRef,
  Topology,
  UnpublishVolumeInput
} from "./programs.ts"
import type {
  CreateVolumeRequest,
  DeleteVolumeRequest,
  NodePublishVolumeRequest,
  NodeUnpublishVolumeRequest,
  StringMap,
  TopologyRequirement,
  ValidateVolumeCapabilitiesRequest,
  VolumeCapability
} from "./proto.ts"

const SUPPORTED_ACCESS_MODES: ReadonlySet<string> = new Set<AccessMode>([
  "SINGLE_NODE_WRITER",
  "SINGLE_NODE_READER_ONLY",
  "MULTI_NODE_READER_ONLY",
  "MULTI_NODE_SINGLE_WRITER",
  "MULTI_NODE_MULTI_WRITER",
  "SINGLE_NODE_SINGLE_WRITER",
  "SINGLE_NODE_MULTI_WRITER"
])

const isAccessMode = (mode: unknown): mode is AccessMode => typeof mode === "string" && SUPPORTED_ACCESS_MODES.has(mode)


const mapField = (map: string, key: string): string => `${map}[${JSON.stringify(key)}]`

const copyMap = (map: StringMap | undefined): Record<string, string> => ({ ...map })

/** A string the request must carry: absent and "" are both "missing" in proto3. */
const requiredString = (value: string | undefined, field: string): Effect.Effect<string, InvalidRequest> =>
  value === undefined || value === "" ? Effect.fail(invalidRequest(field, "is required")) : Effect.succeed(value)

const checkedName = (
  value: string,
  field: string,
  kind: "namespace" | "object name"
): Effect.Effect<string, InvalidRequest> => {
  const valid = kind === "namespace"
    ? value.length <= 63 && DNS_LABEL_PATTERN.test(value)
    : isObjectName(value)
  if (valid) return Effect.succeed(value)
  const expected = kind === "namespace" ? "a DNS label (RFC 1123)" : "a DNS subdomain (RFC 1123)"
  return Effect.fail(invalidRequest(field, `${JSON.stringify(value)} is not a valid Kubernetes ${kind}: expected ${expected}`))
}

/** Why a capability is not one this driver serves, or undefined when it is. */
const capabilityProblem = (capability: VolumeCapability, field: string): InvalidRequest | undefined => {
  if (capability.access_type === "block" || (capability.block !== undefined && capability.block !== null)) {
    return invalidRequest(`${field}.block`, "block volumes are not supported: this driver serves only filesystem (mount) volumes")
  }
  if (capability.mount === undefined || capability.mount === null) {
    return invalidRequest(`${field}.access_type`, "is required: set a mount capability")
  }
  const mode = capability.access_mode?.mode
  if (mode === undefined || mode === "UNKNOWN" || mode === 0) return invalidRequest(`${field}.access_mode`, "is required")
  if (!isAccessMode(mode)) return invalidRequest(`${field}.access_mode`, `${String(mode)} is not a supported access mode`)
  return undefined
}

const mountCapability = (
  capability: VolumeCapability | null | undefined,
  field: string
): Effect.Effect<MountCapability, InvalidRequest> => {
  if (capability === undefined || capability === null) return Effect.fail(invalidRequest(field, "is required"))
  const problem = capabilityProblem(capability, field)
  if (problem !== undefined) return Effect.fail(problem)
  const mode = capability.access_mode?.mode as AccessMode
  return Effect.succeed({
    accessMode: mode,
    fsType: capability.mount?.fs_type ?? "",
    mountFlags: [...(capability.mount?.mount_flags ?? [])]
  })
}

const mountCapabilities = (
  capabilities: ReadonlyArray<VolumeCapability> | undefined,
  field: string
): Effect.Effect<ReadonlyArray<MountCapability>, InvalidRequest> =>
  capabilities === undefined || capabilities.length === 0
    ? Effect.fail(invalidRequest(field, "is required: at least one volume capability"))
    : Effect.forEach(capabilities, (capability, index) => mountCapability(capability, `${field}[${index}]`))

const utf8 = new TextEncoder()
const byteLength = (text: string): number => utf8.encode(text).length

/** Normalised absolute paths only: the publisher writes into and removes this path. */
const targetPath = (value: string | undefined, field: string): Effect.Effect<string, InvalidRequest> =>
  Effect.flatMap(requiredString(value, field), (path) => {
    if (path.includes("\0")) return Effect.fail(invalidRequest(field, "must not contain NUL characters"))
    if (!path.startsWith("/")) return Effect.fail(invalidRequest(field, `${JSON.stringify(path)} is not an absolute path`))
    const segments = path.slice(1).split("/")
    if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
      return Effect.fail(invalidRequest(
        field,
        `${JSON.stringify(path)} is not a normalised path below "/" (no empty, "." or ".." segments, no trailing "/")`
      ))
    }
    // Linux's PATH_MAX and NAME_MAX: longer paths could only fail later, as "internal".
    if (byteLength(path) > 4095) return Effect.fail(invalidRequest(field, `is ${byteLength(path)} bytes long: at most 4095`))
    const long = segments.find((segment) => byteLength(segment) > 255)
    if (long !== undefined) {
      return Effect.fail(invalidRequest(field, `has a ${byteLength(long)}-byte name ${JSON.stringify(`${long.slice(0, 20)}…`)}: at most 255 bytes per name`))
    }
    return Effect.succeed(path)
  })

/**
 * With the kubelet's pods directory configured, a target path must be one the kubelet
 * names: `<pods dir>/<pod uid>/volumes/kubernetes.io~csi/<volume>/mount`. Anything else
 * (a confused or hostile caller on the socket) must not make us write or remove files
 * elsewhere on the node — not even a whole Pod directory inside the pods directory.
 */
const confinedTargetPath = (
  value: string | undefined,
  field: string,
  podsDir: string | undefined
): Effect.Effect<string, InvalidRequest> =>
  Effect.flatMap(targetPath(value, field), (path) => {
    if (podsDir === undefined) return Effect.succeed(path)
    const root = `${podsDir.replace(/\/+$/u, "")}/`
    const below = path.startsWith(root) ? path.slice(root.length).split("/") : []
    return below.length === 5 && below[1] === "volumes" && below[2] === "kubernetes.io~csi" && below[4] === "mount"
      ? Effect.succeed(path)
      : Effect.fail(invalidRequest(
        field,
        `${JSON.stringify(path)} is not a kubelet volume path ${root}<pod uid>/volumes/kubernetes.io~csi/<volume>/mount (--kubelet-pods-dir)`
      ))
  })

const topologies = (requirement: TopologyRequirement | null | undefined, which: "requisite" | "preferred"): ReadonlyArray<Topology> =>
  (requirement?.[which] ?? []).map((topology) => copyMap(topology.segments))

/**
 * Both PVC keys, or neither (a "bare" volume, see `CreateVolumeInput.pvc`). Only one of
 * them means a confused caller, which is refused.
 */
const pvcOf = (parameters: StringMap): Effect.Effect<PvcRef | undefined, InvalidRequest> => {
  const name = parameters[CsiContextKeys.pvcName]
  const namespace = parameters[CsiContextKeys.pvcNamespace]
  if (name === undefined && namespace === undefined) return Effect.succeed(undefined)
  return Effect.gen(function*() {
    const nameField = mapField("parameters", CsiContextKeys.pvcName)
    const namespaceField = mapField("parameters", CsiContextKeys.pvcNamespace)
    return {
      name: yield* Effect.flatMap(requiredString(name, nameField), (value) => checkedName(value, nameField, "object name")),
      namespace: yield* Effect.flatMap(
        requiredString(namespace, namespaceField),
        (value) => checkedName(value, namespaceField, "namespace")
      )
    }
  })
}

export const decodeCreateVolume = Effect.fnUntraced(function*(request: CreateVolumeRequest) {
  const name = yield* requiredString(request.name, "name")
  const capabilities = yield* mountCapabilities(request.volume_capabilities, "volume_capabilities")
  const source = request.volume_content_source
  if (source !== undefined && source !== null && (source.type !== undefined || source.snapshot || source.volume)) {
    return yield* invalidRequest("volume_content_source", "is not supported: listener volumes cannot be cloned or restored")
  }
  const parameters = copyMap(request.parameters)
  const pvc = yield* pvcOf(parameters)
  const input: CreateVolumeInput = {
    name,
    capabilities,
    pvc,
    parameters,
    requisiteTopologies: topologies(request.accessibility_requirements, "requisite"),
    preferredTopologies: topologies(request.accessibility_requirements, "preferred")
  }
  return input
})

export const decodeDeleteVolume = (request: DeleteVolumeRequest): Effect.Effect<string, InvalidRequest> =>
  requiredString(request.volume_id, "volume_id")

export interface ValidateVolumeCapabilitiesInput {
  readonly volumeId: string
  /** One message per capability this driver does not serve; empty = all confirmed. */
  readonly unsupported: ReadonlyArray<string>
}

/**
 * Missing fields are refused; unsupported capabilities are not an error here: the CSI
 * spec answers them with an unconfirmed response and a message.
 */
export const decodeValidateVolumeCapabilities = Effect.fnUntraced(function*(request: ValidateVolumeCapabilitiesRequest) {
  const volumeId = yield* requiredString(request.volume_id, "volume_id")
  const capabilities = request.volume_capabilities ?? []
  if (capabilities.length === 0) {
    return yield* invalidRequest("volume_capabilities", "is required: at least one volume capability")
  }
  const unsupported = capabilities.flatMap((capability, index) => {
    const problem = capabilityProblem(capability, `volume_capabilities[${index}]`)
    return problem === undefined ? [] : [problem.message]
  })
  const input: ValidateVolumeCapabilitiesInput = { volumeId, unsupported }
  return input
})

/** Exactly one of the listener annotations (spec §4: both or neither is refused; "" counts as absent). */
const listenerSelection = (context: StringMap, volumeId: string): Effect.Effect<ListenerSelection, InvalidRequest> => {
  const nameField = mapField("volume_context", PVC_ANNOTATION_LISTENER_NAME)
  const classField = mapField("volume_context", PVC_ANNOTATION_LISTENER_CLASS)
  const selection = listenerSelectionOf(context, `the volume context of ${volumeId}`)
  switch (selection._tag) {
    case "ListenerSelectionInvalid":
      return Effect.fail(invalidRequest(selection.problem === "both" ? nameField : classField, selection.message))
    case "ListenerName":
      return Effect.as(checkedName(selection.listenerName, nameField, "object name"), selection)
    case "ListenerClass":
      return Effect.as(checkedName(selection.className, classField, "object name"), selection)
  }
}

export const decodeNodePublishVolume = Effect.fnUntraced(function*(request: NodePublishVolumeRequest, podsDir?: string) {
  const volumeId = yield* requiredString(request.volume_id, "volume_id")
  const path = yield* confinedTargetPath(request.target_path, "target_path", podsDir)
  const capability = yield* mountCapability(request.volume_capability, "volume_capability")
  const context = copyMap(request.volume_context)
  // An inline CSI volume (volumes[].csi) has no PVC or PV to bind a Listener to; say so
  // before the missing listener annotations would give a less helpful answer.
  if (context[CsiContextKeys.ephemeral] === "true") return yield* new InlineVolumeUnsupported({ volumeId })
  const podNameField = mapField("volume_context", CsiContextKeys.podName)
  const podNamespaceField = mapField("volume_context", CsiContextKeys.podNamespace)
  const podRequirement = "is required (the CSIDriver must set podInfoOnMount: true)"
  const podName = context[CsiContextKeys.podName]
  if (podName === undefined || podName === "") return yield* invalidRequest(podNameField, podRequirement)
  const podNamespace = context[CsiContextKeys.podNamespace]
  if (podNamespace === undefined || podNamespace === "") return yield* invalidRequest(podNamespaceField, podRequirement)
  const podUid = context[CsiContextKeys.podUid]
  const input: PublishVolumeInput = {
    volumeId,
    targetPath: path,
    readonly: request.readonly ?? false,
    capability,
    pod: {
      name: yield* checkedName(podName, podNameField, "object name"),
      namespace: yield* checkedName(podNamespace, podNamespaceField, "namespace"),
      uid: podUid === undefined || podUid === "" ? undefined : podUid
    },
    listener: yield* listenerSelection(context, volumeId),
    volumeContext: context
  }
  return input
})

export const decodeNodeUnpublishVolume = Effect.fnUntraced(function*(request: NodeUnpublishVolumeRequest, podsDir?: string) {
  const input: UnpublishVolumeInput = {
    volumeId: yield* requiredString(request.volume_id, "volume_id"),
    targetPath: yield* confinedTargetPath(request.target_path, "target_path", podsDir)
  }
  return input
})
