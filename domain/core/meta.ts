/**
 * The object metadata every Kubernetes object carries (metav1.ObjectMeta), as far as the
 * operator reads it, plus the reference shapes shared by several kinds.
 *
 * The Schemas describe objects as the API server stores them (name, uid and, for
 * namespaced kinds, namespace are always present); objects built for a write are plain
 * JSON (`KubeObject`) or the `...Encoded` types.
 *
 * Decoding is a typed *view*: unknown fields are dropped (Effect Schema's default), so a
 * decoded object must never be sent back whole with an update; writes go through
 * server-side apply or patches that name only the fields the writer owns.
 */
import { Schema } from "effect"
import { NonNegativeInt, optional, StringMap, Timestamp } from "../fields.ts"

export const OwnerReference = Schema.Struct({
  apiVersion: Schema.String,
  kind: Schema.String,
  name: Schema.String,
  uid: Schema.String,
  controller: optional(Schema.Boolean),
  blockOwnerDeletion: optional(Schema.Boolean)
})
export type OwnerReference = typeof OwnerReference.Type

const commonMetaFields = {
  name: Schema.String,
  // Every object read from the API server has a uid; owner references and mount labels need it.
  uid: Schema.String,
  generateName: optional(Schema.String),
  resourceVersion: optional(Schema.String),
  generation: optional(NonNegativeInt),
  creationTimestamp: optional(Timestamp),
  deletionTimestamp: optional(Timestamp),
  labels: optional(StringMap),
  annotations: optional(StringMap),
  ownerReferences: optional(Schema.Array(OwnerReference)),
  finalizers: optional(Schema.Array(Schema.String))
}

/** Metadata of a stored cluster-scoped object (name and uid always set by the server). */
export const ObjectMeta = Schema.Struct({ ...commonMetaFields, namespace: optional(Schema.String) })
export type ObjectMeta = typeof ObjectMeta.Type

/** Metadata of a stored namespaced object (namespace always set by the server). */
export const NamespacedObjectMeta = Schema.Struct({ ...commonMetaFields, namespace: Schema.String })
export type NamespacedObjectMeta = typeof NamespacedObjectMeta.Type

/** corev1.ObjectReference: Event `regarding`, PersistentVolume `claimRef`. */
export const ObjectReference = Schema.Struct({
  apiVersion: optional(Schema.String),
  kind: optional(Schema.String),
  namespace: optional(Schema.String),
  name: optional(Schema.String),
  uid: optional(Schema.String),
  resourceVersion: optional(Schema.String),
  fieldPath: optional(Schema.String)
})
export type ObjectReference = typeof ObjectReference.Type

/** Ready/NotReady-style condition status shared by core conditions and metav1.Condition. */
export const ConditionStatus = Schema.Literals(["True", "False", "Unknown"])
export type ConditionStatus = typeof ConditionStatus.Type

/** A condition of a core object (a Node's, a Pod's): no observedGeneration, unlike metav1.Condition. */
export const CoreCondition = Schema.Struct({
  type: Schema.String,
  status: ConditionStatus,
  reason: optional(Schema.String),
  message: optional(Schema.String),
  lastTransitionTime: optional(Timestamp)
})
export type CoreCondition = typeof CoreCondition.Type
