/**
 * Where a Listener can be reached (SPEC §3 "Addresses"): one entry per address with the
 * exposed port numbers, chosen per the class's preferred address type with fallback to the
 * other kind, de-duplicated, and validated (an address becomes a directory name in Pods'
 * volumes, so anything that is not plainly an IP address or a DNS name is dropped).
 */
import { classifyAddress } from "../addressSyntax.ts"
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
}

export const planAddresses = (inputs: AddressInputs): ReadonlyArray<ListenerIngress> => {
  const preferred = resolvePreference(inputs.preferred, inputs.serviceType)
  const { service } = inputs
  switch (inputs.serviceType) {
    case "ClusterIP": {
      const ports = servicePortNumbers(service)
      return dedupe(pickAddresses(clusterIpCandidates(service, inputs.clusterDomain), preferred).map((a) => ({ ...a, ports })))
    }
    case "LoadBalancer": {
      const ports = servicePortNumbers(service)
      return dedupe((service.status?.loadBalancer?.ingress ?? []).flatMap((entry) =>
        pickAddresses({ ips: entry.ip ? [entry.ip] : [], hostnames: entry.hostname ? [entry.hostname] : [] }, preferred)
          .map((a) => ({ ...a, ports }))
      ))
    }
    case "NodePort": {
      const ports = nodePortNumbers(service)
      return dedupe(inputs.nodes.flatMap((node) => pickAddresses(nodeCandidates(node), preferred).map((a) => ({ ...a, ports }))))
    }
  }
}
