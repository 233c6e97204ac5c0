/**
 * corev1.Node: its addresses (which address a NodePort Listener publishes) and its
 * Ready condition.
 */
import { Schema } from "effect"
import { optional } from "../fields.ts"
import { CoreCondition, ObjectMeta } from "./meta.ts"

export const NodeAddressType = Schema.Literals(["Hostname", "ExternalIP", "InternalIP", "ExternalDNS", "InternalDNS"])
export type NodeAddressType = typeof NodeAddressType.Type

export const NodeAddress = Schema.Struct({
  type: NodeAddressType,
  address: Schema.String
})
export type NodeAddress = typeof NodeAddress.Type

export const NodeStatus = Schema.Struct({
  addresses: optional(Schema.Array(NodeAddress)),
  conditions: optional(Schema.Array(CoreCondition))
})
export type NodeStatus = typeof NodeStatus.Type

export const Node = Schema.Struct({
  apiVersion: optional(Schema.Literal("v1")),
  kind: optional(Schema.Literal("Node")),
  metadata: ObjectMeta,
  spec: optional(Schema.Struct({ unschedulable: optional(Schema.Boolean) })),
  status: optional(NodeStatus)
})
export type Node = typeof Node.Type
