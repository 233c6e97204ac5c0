/**
 * Request paths and query strings of the Kubernetes REST API, built from `ResourceKind`
 * descriptors. Pure: no I/O, so the URL layout is unit-tested without a server.
 *
 * Layout: core group `/api/v1[/namespaces/{ns}]/{plural}[/{name}][/{subresource}]`,
 * other groups `/apis/{group}/{version}/...`.
 */
import type { ResourceKind } from "../../domain/kinds.ts"

const groupVersionPath = (kind: ResourceKind): string =>
  kind.group === "" ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`

const segment = (value: string): string => encodeURIComponent(value)

/**
 * The collection of a kind. A namespaced kind without a namespace means "all namespaces"
 * (only meaningful for list and watch); a cluster-scoped kind ignores the namespace.
 */
export const collectionPath = (kind: ResourceKind, namespace?: string | undefined): string =>
  kind.namespaced && namespace !== undefined && namespace !== ""
    ? `${groupVersionPath(kind)}/namespaces/${segment(namespace)}/${kind.plural}`
    : `${groupVersionPath(kind)}/${kind.plural}`

/** One object, optionally one of its subresources (`status`). */
export const objectPath = (
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  subresource?: "status" | undefined
): string => {
  const base = `${collectionPath(kind, namespace)}/${segment(name)}`
  return subresource === undefined ? base : `${base}/${subresource}`
}

export type QueryValue = string | number | boolean | undefined

/** `?a=1&b=x%3Dy` with undefined values and empty strings left out; "" when nothing is left. */
export const queryString = (params: Readonly<Record<string, QueryValue>>): string => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === "") continue
    search.append(key, String(value))
  }
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}
