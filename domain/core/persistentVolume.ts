/**
 * corev1.PersistentVolume: the CSI source (volume handle and the volume context frozen
 * at provisioning), the claim it is bound to, and the node affinity that pins it.
 */
import { Schema } from "effect"
import { optional, StringMap } from "../fields.ts"
import { ObjectMeta, ObjectReference } from "./meta.ts"

export const NodeSelectorOperator = Schema.Literals(["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"])
export type NodeSelectorOperator = typeof NodeSelectorOperator.Type

export const NodeSelectorRequirement = Schema.Struct({
  key: Schema.String,
  operator: NodeSelectorOperator,
  values: optional(Schema.Array(Schema.String))
})
export type NodeSelectorRequirement = typeof NodeSelectorRequirement.Type

export const NodeSelectorTerm = Schema.Struct({
  matchExpressions: optional(Schema.Array(NodeSelectorRequirement)),
  matchFields: optional(Schema.Array(NodeSelectorRequirement))
})
export type NodeSelectorTerm = typeof NodeSelectorTerm.Type

export const VolumeNodeAffinity = Schema.Struct({
  required: optional(Schema.Struct({ nodeSelectorTerms: Schema.Array(NodeSelectorTerm) }))
})
export type VolumeNodeAffinity = typeof VolumeNodeAffinity.Type

export const CsiPersistentVolumeSource = Schema.Struct({
  driver: Schema.String,
  volumeHandle: Schema.String,
  readOnly: optional(Schema.Boolean),
  fsType: optional(Schema.String),
  volumeAttributes: optional(StringMap)
})
export type CsiPersistentVolumeSource = typeof CsiPersistentVolumeSource.Type

export const PersistentVolumeSpec = Schema.Struct({
  csi: optional(CsiPersistentVolumeSource),
  claimRef: optional(ObjectReference),
  nodeAffinity: optional(VolumeNodeAffinity),
  accessModes: optional(Schema.Array(Schema.String)),
  mountOptions: optional(Schema.Array(Schema.String)),
  storageClassName: optional(Schema.String),
  persistentVolumeReclaimPolicy: optional(Schema.String),
  volumeMode: optional(Schema.String)
})
export type PersistentVolumeSpec = typeof PersistentVolumeSpec.Type

export const PersistentVolume = Schema.Struct({
  apiVersion: optional(Schema.Literal("v1")),
  kind: optional(Schema.Literal("PersistentVolume")),
  metadata: ObjectMeta,
  spec: optional(PersistentVolumeSpec),
  status: optional(Schema.Struct({ phase: optional(Schema.String) }))
})
export type PersistentVolume = typeof PersistentVolume.Type
