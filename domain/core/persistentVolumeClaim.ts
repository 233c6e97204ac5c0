/**
 * corev1.PersistentVolumeClaim: the listener annotations (in metadata), the storage
 * class that marks it as a listener volume, and the PV it is bound to.
 */
import { Schema } from "effect"
import { optional } from "../fields.ts"
import { NamespacedObjectMeta } from "./meta.ts"

export const PersistentVolumeClaimSpec = Schema.Struct({
  storageClassName: optional(Schema.String),
  volumeName: optional(Schema.String),
  accessModes: optional(Schema.Array(Schema.String)),
  volumeMode: optional(Schema.String),
  // Quantities are strings ("1", "10Mi") on the wire; the server may also accept numbers.
  resources: optional(Schema.Struct({
    requests: optional(Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Number])))
  }))
})
export type PersistentVolumeClaimSpec = typeof PersistentVolumeClaimSpec.Type

export const PersistentVolumeClaim = Schema.Struct({
  apiVersion: optional(Schema.Literal("v1")),
  kind: optional(Schema.Literal("PersistentVolumeClaim")),
  metadata: NamespacedObjectMeta,
  spec: optional(PersistentVolumeClaimSpec),
  status: optional(Schema.Struct({ phase: optional(Schema.String) }))
})
export type PersistentVolumeClaim = typeof PersistentVolumeClaim.Type
