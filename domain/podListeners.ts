/**
 * PodListeners (namespaced, listeners.stackable.tech/v1alpha1): the addresses a Pod has
 * bound through its listener volumes, written by the CSI node plugin as `pod-<pod uid>`
 * and owned by the Pod (spec §2). No status: it is a record, not a request.
 */
import { Schema } from "effect"
import { LISTENER_API_VERSION } from "./constants.ts"
import { NamespacedObjectMeta } from "./core/meta.ts"
import { optional, withDefault } from "./fields.ts"
import { ListenerIngress } from "./listener.ts"

export const ListenerScope = Schema.Literals(["Node", "Cluster"])
export type ListenerScope = typeof ListenerScope.Type

export const PodListener = Schema.Struct({
  scope: ListenerScope.annotate({
    description: "Node if the addresses reach only Pods on one node (NodePort), Cluster otherwise."
  }),
  ingressAddresses: withDefault(
    Schema.Array(ListenerIngress).annotate({
      description: "The addresses that reach this Pod through the volume: the same ones written into the volume's files."
    }),
    []
  )
}).annotate({ description: "The Listener bound through one volume of the Pod." })
export type PodListener = typeof PodListener.Type

export const PodListenersSpec = Schema.Struct({
  listeners: withDefault(
    Schema.Record(Schema.String, PodListener).annotate({
      description: "Bound Listeners keyed by the Pod's volume name (not the PVC or PV name)."
    }),
    {}
  )
}).annotate({ description: "The Listeners bound by the Pod. Written by the operator; not meant to be edited." })
export type PodListenersSpec = typeof PodListenersSpec.Type

export const PodListeners = Schema.Struct({
  apiVersion: optional(Schema.Literal(LISTENER_API_VERSION)),
  kind: optional(Schema.Literal("PodListeners")),
  metadata: NamespacedObjectMeta,
  spec: PodListenersSpec
}).annotate({
  description: "PodListeners: the addresses a Pod has bound through its listener volumes, named pod-<pod uid> and owned by the Pod."
})
export type PodListeners = typeof PodListeners.Type
/** A stored PodListeners on the wire: defaults may be missing, optional fields may be null. */
export type PodListenersEncoded = typeof PodListeners.Encoded
/** The spec as a writer sends it (server-side apply body): defaults may be left out. */
export type PodListenersSpecEncoded = typeof PodListenersSpec.Encoded
