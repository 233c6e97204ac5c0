/**
 * What the Listener planners read, as the smallest structural shapes they need.
 *
 * The decoded domain types (`domain/listener.ts`, `domain/listenerClass.ts`, `domain/core/*`)
 * are assignable to these, so the planners stay independent of how the objects were
 * decoded and tests can build inputs by hand.
 */
export type ServiceType = "ClusterIP" | "NodePort" | "LoadBalancer"
export type AddressType = "IP" | "Hostname"
export type PreferredAddressType = AddressType | "HostnameConservative"
export type PortProtocol = "TCP" | "UDP" | "SCTP"

export interface ListenerPortInput {
  readonly name: string
  readonly port: number
  readonly protocol?: PortProtocol | null | undefined
}

export interface ListenerInput {
  readonly metadata: {
    readonly name: string
    readonly namespace: string
    readonly uid: string
    readonly generation?: number | undefined
    readonly labels?: Readonly<Record<string, string>> | undefined
  }
  readonly spec: {
    readonly className?: string | null | undefined
    readonly ports?: ReadonlyArray<ListenerPortInput> | null | undefined
    readonly extraPodSelectorLabels?: Readonly<Record<string, string>> | null | undefined
    readonly publishNotReadyAddresses?: boolean | null | undefined
    readonly objectOverrides?: ReadonlyArray<unknown> | null | undefined
  }
}

export interface ListenerClassInput {
  readonly spec: {
    readonly serviceType: ServiceType
    readonly serviceAnnotations?: Readonly<Record<string, string>> | null | undefined
    readonly serviceExternalTrafficPolicy?: "Cluster" | "Local" | null | undefined
    readonly loadBalancerClass?: string | null | undefined
    readonly loadBalancerAllocateNodePorts?: boolean | null | undefined
    readonly preferredAddressType?: PreferredAddressType | null | undefined
    readonly nodeAddressTypes?: ReadonlyArray<"ExternalDNS" | "ExternalIP" | "InternalDNS" | "InternalIP" | "Hostname"> | null | undefined
    readonly nodeAddressSelection?: "First" | "OnePerFamily" | "All" | null | undefined
    readonly hostnameTemplate?: string | null | undefined
    readonly hostnameAnnotation?: string | null | undefined
    readonly serviceOverrides?: unknown
  }
}

/** The parts of a live Service the address planner reads. */
export interface ServiceInput {
  readonly metadata: { readonly name: string; readonly namespace?: string | undefined }
  readonly spec?: {
    readonly type?: string | undefined
    readonly clusterIP?: string | undefined
    readonly clusterIPs?: ReadonlyArray<string> | undefined
    readonly ports?: ReadonlyArray<{
      readonly name?: string | undefined
      readonly port: number
      readonly nodePort?: number | undefined
    }> | undefined
  } | undefined
  readonly status?: {
    readonly loadBalancer?: {
      readonly ingress?: ReadonlyArray<{ readonly ip?: string | undefined; readonly hostname?: string | undefined }> | undefined
    } | undefined
  } | undefined
}

export interface NodeAddressInput {
  readonly type: string
  readonly address: string
}

export interface NodeInput {
  readonly metadata: { readonly name: string; readonly annotations?: Readonly<Record<string, string>> | undefined }
  readonly status?: { readonly addresses?: ReadonlyArray<NodeAddressInput> | undefined } | undefined
}

export interface NodeSelectorRequirementInput {
  readonly key: string
  readonly operator: string
  readonly values?: ReadonlyArray<string> | undefined
}

export interface PersistentVolumeInput {
  readonly spec?: {
    readonly nodeAffinity?: {
      readonly required?: {
        readonly nodeSelectorTerms?: ReadonlyArray<{
          readonly matchExpressions?: ReadonlyArray<NodeSelectorRequirementInput> | undefined
        }> | undefined
      } | undefined
    } | undefined
  } | undefined
}

export interface EndpointSliceInput {
  readonly endpoints?: ReadonlyArray<{ readonly nodeName?: string | undefined }> | undefined
}

/** One published address: where the Listener can be reached, with the exposed port numbers. */
export interface ListenerIngress {
  readonly address: string
  readonly addressType: AddressType
  readonly ports: Readonly<Record<string, number>>
}
