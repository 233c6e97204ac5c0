/**
 * Which addresses of a Node a NodePort Listener publishes (spec §3, extended by §7):
 *
 * 1. A per-node override: the annotation `listeners.stackable.tech/node-address` on the
 *    Node (comma-separated IP addresses or DNS names, e.g. a NAT address or a DNS name
 *    that resolves from outside). Entries that are neither are refused (and reported);
 *    with no valid entry left the override is ignored.
 * 2. Else, when the class lists `nodeAddressTypes`, the first type in that order for which
 *    the Node has a usable address (ExternalDNS, ExternalIP, InternalDNS, InternalIP,
 *    Hostname).
 * 3. Else the upstream rule: the class's preferred kind (IP: ExternalIP, else InternalIP;
 *    Hostname: the Hostname address), falling back to the other kind.
 *
 * Of the addresses found, the class's `nodeAddressSelection` keeps the first (`First`, the
 * upstream behaviour), the first of each IP family (`OnePerFamily`, dual-stack), or all.
 */
import { addressProblem, classifyAddress, isIPv4, isIPv6 } from "../addressSyntax.ts"
import type { AddressType, NodeInput } from "./inputs.ts"

/** An address left out of a Listener's addresses, and why (addresses.ts, the status names it). */
export interface RefusedAddress {
  readonly address: string
  readonly problem: string
}

export const NODE_ADDRESS_ANNOTATION = "listeners.stackable.tech/node-address"

export const NODE_ADDRESS_TYPES = ["ExternalDNS", "ExternalIP", "InternalDNS", "InternalIP", "Hostname"] as const
export type NodeAddressType = (typeof NODE_ADDRESS_TYPES)[number]

export const NODE_ADDRESS_SELECTIONS = ["First", "OnePerFamily", "All"] as const
export type NodeAddressSelection = (typeof NODE_ADDRESS_SELECTIONS)[number]

export interface NodeAddressPolicy {
  /** The resolved preferred kind (resolvePreference), for the upstream rule. */
  readonly preferred: AddressType
  readonly types?: ReadonlyArray<NodeAddressType> | null | undefined
  readonly selection?: NodeAddressSelection | null | undefined
}

export interface PickedAddress {
  readonly address: string
  readonly addressType: AddressType
}

const kindOfType = (type: NodeAddressType): AddressType => (type === "ExternalIP" || type === "InternalIP" ? "IP" : "Hostname")

const usable = (addresses: ReadonlyArray<string>, kind: AddressType): ReadonlyArray<PickedAddress> =>
  addresses.filter((address) => classifyAddress(address) === kind).map((address) => ({ address, addressType: kind }))

const ofType = (node: NodeInput, type: string): ReadonlyArray<string> =>
  (node.status?.addresses ?? []).filter((a) => a.type === type).map((a) => a.address)

/** The override annotation, split into usable addresses and refused entries; undefined when absent. */
export const nodeAddressOverride = (node: NodeInput): { readonly addresses: ReadonlyArray<PickedAddress>; readonly refused: ReadonlyArray<RefusedAddress> } | undefined => {
  const value = node.metadata.annotations?.[NODE_ADDRESS_ANNOTATION]
  if (value === undefined) return undefined
  const entries = value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  const addresses: Array<PickedAddress> = []
  const refused: Array<RefusedAddress> = []
  for (const entry of entries) {
    const kind = classifyAddress(entry)
    if (kind === undefined) refused.push({ address: entry, problem: `${addressProblem(entry) ?? "is not usable"} (annotation ${NODE_ADDRESS_ANNOTATION} of Node ${node.metadata.name})` })
    else addresses.push({ address: entry, addressType: kind })
  }
  if (entries.length === 0) refused.push({ address: value, problem: `is empty (annotation ${NODE_ADDRESS_ANNOTATION} of Node ${node.metadata.name})` })
  return { addresses, refused }
}

const select = (found: ReadonlyArray<PickedAddress>, selection: NodeAddressSelection | null | undefined): ReadonlyArray<PickedAddress> => {
  const unique = found.filter((a, i) => found.findIndex((b) => b.address === a.address) === i)
  switch (selection ?? "First") {
    case "First":
      return unique.slice(0, 1)
    case "All":
      return unique
    case "OnePerFamily": {
      const v4 = unique.find((a) => a.addressType === "IP" && isIPv4(a.address))
      const v6 = unique.find((a) => a.addressType === "IP" && isIPv6(a.address))
      const name = unique.find((a) => a.addressType === "Hostname")
      const ips = [v4, v6].filter((a): a is PickedAddress => a !== undefined)
      return ips.length > 0 ? ips : name === undefined ? [] : [name]
    }
  }
}

/**
 * The Node address types `policy` accepts, in its order of preference: the class's
 * `nodeAddressTypes` as listed, else the upstream rule's (ExternalIP, InternalIP and
 * Hostname, the preferred kind first). What a node without a usable address must offer.
 */
export const acceptedNodeAddressTypes = (policy: NodeAddressPolicy): ReadonlyArray<NodeAddressType> => {
  if (policy.types !== undefined && policy.types !== null && policy.types.length > 0) return policy.types
  return policy.preferred === "IP" ? ["ExternalIP", "InternalIP", "Hostname"] : ["Hostname", "ExternalIP", "InternalIP"]
}

/** The addresses to publish for `node`, per the rules above (possibly none). */
export const nodeAddresses = (node: NodeInput, policy: NodeAddressPolicy): ReadonlyArray<PickedAddress> => {
  const override = nodeAddressOverride(node)
  if (override !== undefined && override.addresses.length > 0) return select(override.addresses, policy.selection)
  if (policy.types !== undefined && policy.types !== null && policy.types.length > 0) {
    for (const type of policy.types) {
      const found = usable(ofType(node, type), kindOfType(type))
      if (found.length > 0) return select(found, policy.selection)
    }
    return []
  }
  const external = ofType(node, "ExternalIP")
  const ips = usable(external.length > 0 ? external : ofType(node, "InternalIP"), "IP")
  const hostnames = usable(ofType(node, "Hostname"), "Hostname")
  // The upstream rule looks at the first address of each kind only.
  const first = policy.selection === undefined || policy.selection === null || policy.selection === "First"
  const [preferred, other] = policy.preferred === "IP" ? [ips, hostnames] : [hostnames, ips]
  const candidates = (list: ReadonlyArray<PickedAddress>, all: ReadonlyArray<string>) =>
    first ? list.filter((a) => a.address === all[0]) : list
  const preferredAll = policy.preferred === "IP" ? (external.length > 0 ? external : ofType(node, "InternalIP")) : ofType(node, "Hostname")
  const otherAll = policy.preferred === "IP" ? ofType(node, "Hostname") : (external.length > 0 ? external : ofType(node, "InternalIP"))
  const chosen = candidates(preferred, preferredAll)
  return select(chosen.length > 0 ? chosen : candidates(other, otherAll), policy.selection)
}
