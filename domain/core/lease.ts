/**
 * coordination.k8s.io/v1 Lease: the controller's leader-election lock.
 * Times are RFC 3339 text with microseconds (MicroTime).
 */
import { Schema } from "effect"
import { NonNegativeInt, optional, Timestamp } from "../fields.ts"
import { NamespacedObjectMeta } from "./meta.ts"

export const LeaseSpec = Schema.Struct({
  holderIdentity: optional(Schema.String),
  leaseDurationSeconds: optional(NonNegativeInt),
  acquireTime: optional(Timestamp),
  renewTime: optional(Timestamp),
  leaseTransitions: optional(NonNegativeInt)
})
export type LeaseSpec = typeof LeaseSpec.Type

export const Lease = Schema.Struct({
  apiVersion: optional(Schema.Literal("coordination.k8s.io/v1")),
  kind: optional(Schema.Literal("Lease")),
  metadata: NamespacedObjectMeta,
  spec: optional(LeaseSpec)
})
export type Lease = typeof Lease.Type
