/**
 * Where a Listener can be reached (spec §3 "Addresses"): one entry per address with the
 * exposed port numbers, chosen per the class's preferred address type with fallback to the
 * other kind, de-duplicated, and validated (an address becomes a directory name in Pods'
 * volumes, so anything that is not plainly an IP address or a DNS name is dropped).
 */
import { addressProblem, classifyAddress } from "../addressSyntax.ts"
import { nodeAddressOverride, nodeAddresses } from "./nodeAddresses.ts"
import type { NodeAddressPolicy, NodeAddressSelection, NodeAddressType, RefusedAddress } from "./nodeAddresses.ts"
import type {
  AddressType,
  ListenerIngress,
  NodeInput,
  PreferredAddressType,
  ServiceInput,
  ServiceType
} from "./inputs.ts"

/** HostnameConservative = IP for NodePort (node names rarely resolve outside), Hostname otherwise. */
export const resolvePreference = (
  preferred: PreferredAddressType | null | undefined,
  serviceType: ServiceType
): AddressType => {
  const preference = preferred ?? "HostnameConservative"
  if (preference !== "HostnameConservative") return preference
  return serviceType === "NodePort" ? "IP" : "Hostname"
}

export interface AddressCandidates {
  readonly ips: ReadonlyArray<string>
  readonly hostnames: ReadonlyArray<string>
}

/** The addresses to publish for one target: the preferred kind if any, else the other kind. */
export const pickAddresses = (
  candidates: AddressCandidates,
  preferred: AddressType
): ReadonlyArray<{ readonly address: string; readonly addressType: AddressType }> => {
  const valid = (addresses: ReadonlyArray<string>, type: AddressType) =>
    addresses.filter((address) => classifyAddress(address) === type).map((address) => ({ address, addressType: type }))
  const ips = valid(candidates.ips, "IP")
  const hostnames = valid(candidates.hostnames, "Hostname")
  const [first, second] = preferred === "IP" ? [ips, hostnames] : [hostnames, ips]
  return first.length > 0 ? first : second
}

/** Port name → service port (ClusterIP, LoadBalancer). */
export const servicePortNumbers = (service: ServiceInput): Record<string, number> =>
  Object.fromEntries((service.spec?.ports ?? []).flatMap((port) => (port.name !== undefined ? [[port.name, port.port]] : [])))

/** Port name → node port (NodePort); ports the API server has not allocated yet are absent. */
export const nodePortNumbers = (service: ServiceInput): Record<string, number> =>
  Object.fromEntries(
    (service.spec?.ports ?? []).flatMap((port) =>
      port.name !== undefined && port.nodePort !== undefined ? [[port.name, port.nodePort]] : []
    )
  )

const dedupe = (ingresses: ReadonlyArray<ListenerIngress>): ReadonlyArray<ListenerIngress> => {
  const seen = new Set<string>()
  return ingresses.filter((ingress) => {
    const key = `${ingress.addressType}/${ingress.address}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

export const clusterIpCandidates = (service: ServiceInput, clusterDomain: string): AddressCandidates => {
  const ips = service.spec?.clusterIPs ?? (service.spec?.clusterIP !== undefined ? [service.spec.clusterIP] : [])
  return {
    ips: ips.filter((ip) => ip !== "None" && ip !== ""),
    hostnames: [`${service.metadata.name}.${service.metadata.namespace}.svc.${clusterDomain}`]
  }
}

/** The node's IP is its ExternalIP, else its InternalIP; its hostname is its Hostname address. */
export const nodeCandidates = (node: NodeInput): AddressCandidates => {
  const addresses = node.status?.addresses ?? []
  const ofType = (type: string) => addresses.filter((a) => a.type === type).map((a) => a.address)
  const external = ofType("ExternalIP")
  return { ips: (external.length > 0 ? external : ofType("InternalIP")).slice(0, 1), hostnames: ofType("Hostname").slice(0, 1) }
}

export interface AddressInputs {
  readonly serviceType: ServiceType
  readonly preferred: PreferredAddressType | null | undefined
  readonly service: ServiceInput
  readonly clusterDomain: string
  /** NodePort only: the backing nodes found in the cache (missing nodes are simply absent). */
  readonly nodes: ReadonlyArray<NodeInput>
  /** NodePort only: the class's node address rules (nodeAddresses.ts). */
  readonly nodeAddressTypes?: ReadonlyArray<NodeAddressType> | null | undefined
  readonly nodeAddressSelection?: NodeAddressSelection | null | undefined
}

/** The node address rules of `inputs`, for nodeAddresses(). */
export const nodeAddressPolicyOf = (inputs: Pick<AddressInputs, "preferred" | "nodeAddressTypes" | "nodeAddressSelection">): NodeAddressPolicy => ({
  preferred: resolvePreference(inputs.preferred, "NodePort"),
  types: inputs.nodeAddressTypes,
  selection: inputs.nodeAddressSelection
})

/** One target's candidates with the exposed ports: a Service, a load-balancer ingress entry, a node. */
interface Target {
  readonly candidates: AddressCandidates
  readonly ports: Record<string, number>
}

const targetsOf = (inputs: AddressInputs): ReadonlyArray<Target> => {
  const { service } = inputs
  switch (inputs.serviceType) {
    case "ClusterIP":
      return [{ candidates: clusterIpCandidates(service, inputs.clusterDomain), ports: servicePortNumbers(service) }]
    case "LoadBalancer": {
      const ports = servicePortNumbers(service)
      return (service.status?.loadBalancer?.ingress ?? []).map((entry) => ({
        candidates: { ips: entry.ip ? [entry.ip] : [], hostnames: entry.hostname ? [entry.hostname] : [] },
        ports
      }))
    }
    case "NodePort": {
      const ports = nodePortNumbers(service)
      return inputs.nodes.map((node) => ({ candidates: nodeCandidates(node), ports }))
    }
  }
}

export const planAddresses = (inputs: AddressInputs): ReadonlyArray<ListenerIngress> => {
  if (inputs.serviceType === "NodePort") {
    const ports = nodePortNumbers(inputs.service)
    const policy = nodeAddressPolicyOf(inputs)
    return dedupe(inputs.nodes.flatMap((node) => nodeAddresses(node, policy).map((a) => ({ ...a, ports }))))
  }
  const preferred = resolvePreference(inputs.preferred, inputs.serviceType)
  return dedupe(targetsOf(inputs).flatMap(({ candidates, ports }) =>
    pickAddresses(candidates, preferred).map((a) => ({ ...a, ports }))
  ))
}

export type { RefusedAddress }

/**
 * The candidate addresses `planAddresses` leaves out because they are not what they claim
 * to be (an "IP" that does not parse, a hostname that is not a DNS name — e.g. `../x`), so
 * the status can name them instead of dropping them silently.
 */
export const refusedAddresses = (inputs: AddressInputs): ReadonlyArray<RefusedAddress> => {
  const refused = new Map<string, string>()
  const check = (address: string, expected: AddressType) => {
    if (classifyAddress(address) === expected || refused.has(address)) return
    refused.set(address, addressProblem(address) ?? (expected === "IP" ? "is not an IP address" : "is not a DNS name"))
  }
  for (const { candidates } of targetsOf(inputs)) {
    for (const ip of candidates.ips) check(ip, "IP")
    for (const hostname of candidates.hostnames) check(hostname, "Hostname")
  }
  const overrides = inputs.serviceType === "NodePort" ? inputs.nodes.flatMap((node) => nodeAddressOverride(node)?.refused ?? []) : []
  return [...overrides, ...[...refused].map(([address, problem]) => ({ address, problem }))]
}
