/**
 * Object identity inside the runtime: the `namespace/name` key the store and the work queue
 * use, and conversions between keys, `ObjectRef`s and objects. Kubernetes names and
 * namespaces never contain "/", so the key is unambiguous.
 */
import type { KubeObject, ObjectRef } from "../../effects/shared/KubeApi.ts"

/** `namespace/name`, or `name` for a cluster-scoped object. */
export const keyOf = (ref: ObjectRef): string =>
  ref.namespace === undefined || ref.namespace === "" ? ref.name : `${ref.namespace}/${ref.name}`

export const refOfKey = (key: string): ObjectRef => {
  const slash = key.indexOf("/")
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) }
}

/** The reference of an object as the API server sent it (`undefined` namespace when cluster-scoped). */
export const refOf = (object: KubeObject): ObjectRef => {
  const namespace = object.metadata.namespace
  return namespace === undefined || namespace === "" ? { name: object.metadata.name ?? "" } : { namespace, name: object.metadata.name ?? "" }
}

export const objectKeyOf = (object: KubeObject): string => keyOf(refOf(object))
