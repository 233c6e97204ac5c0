/**
 * Why a Listener has no address yet, and what will give it one: the tail of the Ready
 * condition's AwaitingAddresses message (explainable waiting, spec §7). The node plugin's
 * Events on waiting Pods point at this condition, so it has to name the missing piece.
 */
import { nodeAddressPolicyOf, nodePortNumbers } from "./addresses.ts"
import { nodeAddresses } from "./nodeAddresses.ts"
import type { AddressInputs } from "./addresses.ts"

const listOf = (names: ReadonlyArray<string>): string =>
  names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`

export interface AwaitingInputs extends AddressInputs {
  /** NodePort only: the names of the backing nodes, found in the cache or not. */
  readonly backingNodeNames: ReadonlyArray<string>
  readonly loadBalancerClass?: string | null | undefined
}

/** What a Listener without addresses waits for. */
export const awaitingAddressesHint = (inputs: AwaitingInputs): string => {
  const service = inputs.service
  switch (inputs.serviceType) {
    case "ClusterIP":
      return "the Service has no cluster IP yet (the API server assigns one when it is created)"
    case "LoadBalancer": {
      const controller = inputs.loadBalancerClass ? `the load-balancer controller of loadBalancerClass ${inputs.loadBalancerClass}` : "a load-balancer controller"
      return `status.loadBalancer.ingress of the Service is empty; it fills when ${controller} assigns an address ` +
        "(if it stays empty, no such controller runs in this cluster: choose a ListenerClass of another serviceType)"
    }
    case "NodePort": {
      if (Object.keys(nodePortNumbers(service)).length === 0) return "the Service has no node ports allocated yet"
      if (inputs.backingNodeNames.length === 0) {
        return "no Pod that mounts a volume of this Listener is running on a node yet; every node that runs one becomes an address"
      }
      const known = new Set(inputs.nodes.map((node) => node.metadata.name))
      const missing = inputs.backingNodeNames.filter((name) => !known.has(name))
      const policy = nodeAddressPolicyOf(inputs)
      const unusable = inputs.nodes.filter((node) => nodeAddresses(node, policy).length === 0).map((node) => node.metadata.name)
      const rule = inputs.nodeAddressTypes !== undefined && inputs.nodeAddressTypes !== null && inputs.nodeAddressTypes.length > 0
        ? `no address of the class's nodeAddressTypes (${inputs.nodeAddressTypes.join(", ")})`
        : "no ExternalIP, InternalIP or Hostname address"
      const parts = [
        ...(missing.length > 0 ? [`node(s) ${listOf(missing)} no longer exist`] : []),
        ...(unusable.length > 0 ? [`node(s) ${listOf(unusable)} have ${rule}`] : [])
      ]
      return parts.length > 0 ? parts.join("; ") : `node(s) ${listOf(inputs.backingNodeNames)} have no usable address`
    }
  }
}
