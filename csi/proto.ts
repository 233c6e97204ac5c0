/**
 * The CSI v1 wire contract in TypeScript: the plain objects `grpc/codecs.ts` decodes
 * requests into and encodes responses from (package `csi.v1`, generated from `csi.proto`).
 *
 * Field names stay snake_case as on the wire, int64 arrive as decimal strings, enums as
 * their names, absent scalars/maps/lists as their defaults, absent messages as `null`, and
 * a oneof adds a virtual field naming the member that is set (`access_type: "mount"`).
 *
 * Request types below make every field optional: they describe untrusted input, and
 * `requests.ts` validates it before anything else runs.
 */
export type CsiServiceName = "Identity" | "Controller" | "Node"

/** The gRPC path of an RPC, e.g. `/csi.v1.Node/NodePublishVolume`. */
export const rpcPath = (service: CsiServiceName, method: string): string => `/csi.v1.${service}/${method}`

// ---- Shared messages ----

export type StringMap = Record<string, string>

export type AccessModeName =
  | "UNKNOWN"
  | "SINGLE_NODE_WRITER"
  | "SINGLE_NODE_READER_ONLY"
  | "MULTI_NODE_READER_ONLY"
  | "MULTI_NODE_SINGLE_WRITER"
  | "MULTI_NODE_MULTI_WRITER"
  | "SINGLE_NODE_SINGLE_WRITER"
  | "SINGLE_NODE_MULTI_WRITER"

export interface MountVolume {
  readonly fs_type?: string
  readonly mount_flags?: ReadonlyArray<string>
  readonly volume_mount_group?: string
}

export interface VolumeCapability {
  readonly block?: Record<string, never> | null
  readonly mount?: MountVolume | null
  /** A number when the sender used an enum value this proto does not know. */
  readonly access_mode?: { readonly mode?: AccessModeName | number } | null
  /** The oneof's virtual field: which of `block` / `mount` is set. */
  readonly access_type?: "block" | "mount" | undefined
}

export interface Topology {
  readonly segments?: StringMap
}

export interface TopologyRequirement {
  readonly requisite?: ReadonlyArray<Topology>
  readonly preferred?: ReadonlyArray<Topology>
}

export interface CapacityRange {
  readonly required_bytes?: string
  readonly limit_bytes?: string
}

export interface VolumeContentSource {
  readonly snapshot?: { readonly snapshot_id?: string } | null
  readonly volume?: { readonly volume_id?: string } | null
  readonly type?: "snapshot" | "volume" | undefined
}

// ---- Identity ----

export type GetPluginInfoRequest = Record<string, never>

export interface GetPluginInfoResponse {
  readonly name: string
  readonly vendor_version: string
  readonly manifest?: StringMap
}

export type GetPluginCapabilitiesRequest = Record<string, never>

export type PluginServiceType = "CONTROLLER_SERVICE" | "VOLUME_ACCESSIBILITY_CONSTRAINTS"

export interface GetPluginCapabilitiesResponse {
  readonly capabilities: ReadonlyArray<{ readonly service: { readonly type: PluginServiceType } }>
}

export type ProbeRequest = Record<string, never>

export interface ProbeResponse {
  readonly ready: { readonly value: boolean }
}

// ---- Controller ----

export interface CreateVolumeRequest {
  readonly name?: string
  readonly capacity_range?: CapacityRange | null
  readonly volume_capabilities?: ReadonlyArray<VolumeCapability>
  readonly parameters?: StringMap
  readonly secrets?: StringMap
  readonly volume_content_source?: VolumeContentSource | null
  readonly accessibility_requirements?: TopologyRequirement | null
  readonly mutable_parameters?: StringMap
}

export interface CreateVolumeResponse {
  readonly volume: {
    /** int64; 0 = unknown (listener volumes have no size). */
    readonly capacity_bytes: string | number
    readonly volume_id: string
    readonly volume_context: StringMap
    readonly accessible_topology: ReadonlyArray<{ readonly segments: StringMap }>
  }
}

export interface DeleteVolumeRequest {
  readonly volume_id?: string
  readonly secrets?: StringMap
}

export type DeleteVolumeResponse = Record<string, never>

export interface ValidateVolumeCapabilitiesRequest {
  readonly volume_id?: string
  readonly volume_context?: StringMap
  readonly volume_capabilities?: ReadonlyArray<VolumeCapability>
  readonly parameters?: StringMap
  readonly secrets?: StringMap
  readonly mutable_parameters?: StringMap
}

export interface ValidateVolumeCapabilitiesResponse {
  /** Set only when every requested capability is supported; echoes what was confirmed. */
  readonly confirmed: {
    readonly volume_context: StringMap
    readonly volume_capabilities: ReadonlyArray<VolumeCapability>
    readonly parameters: StringMap
    readonly mutable_parameters: StringMap
  } | null
  /** Why the capabilities are not confirmed ("" when they are). */
  readonly message: string
}

export type ControllerGetCapabilitiesRequest = Record<string, never>

export type ControllerRpcType = "CREATE_DELETE_VOLUME"

export interface ControllerGetCapabilitiesResponse {
  readonly capabilities: ReadonlyArray<{ readonly rpc: { readonly type: ControllerRpcType } }>
}

// ---- Node ----

export interface NodePublishVolumeRequest {
  readonly volume_id?: string
  readonly publish_context?: StringMap
  readonly staging_target_path?: string
  readonly target_path?: string
  readonly volume_capability?: VolumeCapability | null
  readonly readonly?: boolean
  readonly secrets?: StringMap
  readonly volume_context?: StringMap
}

export type NodePublishVolumeResponse = Record<string, never>

export interface NodeUnpublishVolumeRequest {
  readonly volume_id?: string
  readonly target_path?: string
}

export type NodeUnpublishVolumeResponse = Record<string, never>

export type NodeGetInfoRequest = Record<string, never>

export interface NodeGetInfoResponse {
  readonly node_id: string
  /** int64; 0 = no limit. */
  readonly max_volumes_per_node: string | number
  readonly accessible_topology: { readonly segments: StringMap }
}

export type NodeGetCapabilitiesRequest = Record<string, never>

export interface NodeGetCapabilitiesResponse {
  /** This driver has no optional node capabilities (no staging, no stats, no expansion). */
  readonly capabilities: ReadonlyArray<never>
}
