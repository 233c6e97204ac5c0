/**
 * Which nodes back a NodePort Listener (spec §3): the union of
 * (a) nodes named by the required node affinity (`listeners.stackable.tech/hostname In …`)
 *     of the PersistentVolumes labelled for the Listener, and
 * (b) nodes of the Service's EndpointSlice endpoints, ready or not.
 */
import type { EndpointSliceInput, PersistentVolumeInput } from "./inputs.ts"
import { TOPOLOGY_KEY_HOSTNAME } from "./labels.ts"

export const pinnedNodesOf = (pv: PersistentVolumeInput): ReadonlyArray<string> =>
  (pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []).flatMap((term) =>
    (term.matchExpressions ?? []).flatMap((requirement) =>
      requirement.key === TOPOLOGY_KEY_HOSTNAME && requirement.operator === "In" ? [...(requirement.values ?? [])] : []
    )
  )

export const endpointNodesOf = (slice: EndpointSliceInput): ReadonlyArray<string> =>
  (slice.endpoints ?? []).flatMap((endpoint) => (endpoint.nodeName ? [endpoint.nodeName] : []))

/** Node names, de-duplicated and sorted so that the published address order is stable. */
export const backingNodeNames = (
  volumes: ReadonlyArray<PersistentVolumeInput>,
  slices: ReadonlyArray<EndpointSliceInput>
): ReadonlyArray<string> =>
  [...new Set([...volumes.flatMap(pinnedNodesOf), ...slices.flatMap(endpointNodesOf)])].sort()
