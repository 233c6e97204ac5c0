/**
 * ListenerClass (cluster-scoped, listeners.stackable.tech/v1alpha1): the cluster
 * administrator's policy for exposing Listeners (spec §2). Every field, enum and default
 * here also defines the CRD schema (k8s/crds.ts), descriptions included.
 */
import { Schema } from "effect"
import { FreeFormObject, optional, StringMap, withDefault } from "./fields.ts"
import { ObjectMeta } from "./core/meta.ts"
import { LISTENER_API_VERSION } from "./constants.ts"
import { DurationText } from "./duration.ts"
import { NODE_ADDRESS_SELECTIONS, NODE_ADDRESS_TYPES } from "./listenerPlan/nodeAddresses.ts"
import { HOSTNAME_PLACEHOLDERS, HOSTNAME_TEMPLATE_PATTERN } from "./listenerPlan/hostnameTemplate.ts"
import { NAMESPACE_PATTERN_PATTERN } from "./classNamespaces.ts"

/** An annotation key: an optional DNS-subdomain prefix and '/', then a name of at most 63 characters. */
const ANNOTATION_KEY_PATTERN = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/u

const HOSTNAME_TEMPLATE_MESSAGE = `hostnameTemplate may only hold lower-case letters, digits, '-', '.' and the placeholders {${HOSTNAME_PLACEHOLDERS.join("}, {")}}`

/** The same rule the CRD's CEL rule enforces at admission, for objects decoded from elsewhere. */
const hostnameTemplateCharacters = Schema.makeFilter<string>((template) =>
  new RegExp(HOSTNAME_TEMPLATE_PATTERN, "u").test(template) ? undefined : HOSTNAME_TEMPLATE_MESSAGE, { expected: "a hostname template" })

const celString = (text: string): string => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`

export const ListenerServiceType = Schema.Literals(["ClusterIP", "NodePort", "LoadBalancer"])
export type ListenerServiceType = typeof ListenerServiceType.Type

export const ServiceExternalTrafficPolicy = Schema.Literals(["Cluster", "Local"])
export type ServiceExternalTrafficPolicy = typeof ServiceExternalTrafficPolicy.Type

export const PreferredAddressType = Schema.Literals(["IP", "Hostname", "HostnameConservative"])

export const NodeAddressTypeSchema = Schema.Literals(NODE_ADDRESS_TYPES)
export const NodeAddressSelectionSchema = Schema.Literals(NODE_ADDRESS_SELECTIONS)
export type PreferredAddressType = typeof PreferredAddressType.Type

export const ListenerClassSpec = Schema.Struct({
  serviceType: ListenerServiceType.annotate({
    description: "How Listeners of this class are exposed: ClusterIP (inside the cluster only), NodePort (on the nodes running the Pods) or LoadBalancer."
  }),
  serviceAnnotations: withDefault(
    StringMap.annotate({ description: "Annotations copied onto every Service created for a Listener of this class." }),
    {}
  ),
  serviceExternalTrafficPolicy: optional(ServiceExternalTrafficPolicy.annotate({
    description: "externalTrafficPolicy of the Service (Cluster or Local). Applies to NodePort and LoadBalancer classes only; unset leaves the Kubernetes default."
  })),
  loadBalancerClass: optional(Schema.String.annotate({
    description: "loadBalancerClass of the Service, selecting a non-default load-balancer implementation. LoadBalancer classes only."
  })),
  loadBalancerAllocateNodePorts: withDefault(
    Schema.Boolean.annotate({
      description: "allocateLoadBalancerNodePorts of the Service: whether a LoadBalancer Service also gets node ports. LoadBalancer classes only."
    }),
    true
  ),
  preferredAddressType: withDefault(
    PreferredAddressType.annotate({
      description: "Which kind of address Listeners publish: IP, Hostname, or HostnameConservative (IP for NodePort classes, Hostname otherwise). The other kind is used when the preferred one is unavailable."
    }),
    "HostnameConservative"
  ),
  nodeAddressTypes: optional(Schema.Array(NodeAddressTypeSchema).check(Schema.isMaxLength(5)).annotate({
    description: "NodePort classes: which Node address types to publish, in order of preference (ExternalDNS, ExternalIP, InternalDNS, InternalIP, Hostname); the first type a node has a usable address of wins. Unset: preferredAddressType decides (ExternalIP, else InternalIP, for IP; Hostname for Hostname). A node's listeners.stackable.tech/node-address annotation overrides both.",
    "x-kubernetes-list-type": "set"
  })),
  nodeAddressSelection: optional(NodeAddressSelectionSchema.annotate({
    description: "NodePort classes: how many of a node's addresses of the chosen type to publish: First (default, one), OnePerFamily (the first IPv4 and the first IPv6 address: dual-stack), or All."
  })),
  pinnedNodePorts: withDefault(
    Schema.Boolean.annotate({
      description: "NodePort classes: pin each listener volume (and so its Pod) to the node it was first scheduled on, so its published address stays the same."
    }),
    false
  ),
  pinnedNodeLossRecovery: optional(Schema.Boolean.annotate({
    description: "Pinned NodePort classes (pinnedNodePorts): when the Node a listener volume is pinned to is deleted, release the volume — delete its PVC, the Pods on that Node that use it, and its PersistentVolume — so the replica is scheduled on another node and gets a new address. Off when unset. A per-volume Listener is kept (owned by the Pod's workload) so its Service and node ports survive."
  })),
  pinnedNodeLossGracePeriod: optional(DurationText.annotate({
    description: "With pinnedNodeLossRecovery: also release volumes pinned to a Node whose Ready condition has not been True for this long (e.g. 10m). Pods on such a Node are force-deleted, so use it only where a NotReady node cannot still be running them. Unset: only deleted Nodes count."
  })),
  hostnameTemplate: optional(Schema.String.check(hostnameTemplateCharacters, Schema.isMinLength(1), Schema.isMaxLength(253)).annotate({
    description: `A DNS name for every Listener of this class, e.g. {listener}.{namespace}.kafka.example.com, published (as a Hostname address with the class's ports) instead of the addresses the class finds, once it finds one. Placeholders: {${HOSTNAME_PLACEHOLDERS.join("}, {")}} ({ordinal}: the number a StatefulSet volume's Listener name ends in). Make the name resolve with hostnameAnnotation and external-dns, or your own DNS.`,
    "x-kubernetes-validations": [{
      rule: `self.matches(${celString(HOSTNAME_TEMPLATE_PATTERN)})`,
      message: HOSTNAME_TEMPLATE_MESSAGE
    }]
  })),
  hostnameAnnotation: optional(Schema.String.check(Schema.isMaxLength(316), Schema.isPattern(ANNOTATION_KEY_PATTERN, { expected: "an annotation key ([prefix/]name)" })).annotate({
    description: "With hostnameTemplate: the Service annotation that carries the Listener's hostname, e.g. external-dns.alpha.kubernetes.io/hostname so that external-dns publishes the name for the Service's address. Unset: no annotation."
  })),
  allowedNamespaces: optional(
    Schema.Array(
      Schema.String.check(Schema.isMaxLength(63), Schema.isPattern(NAMESPACE_PATTERN_PATTERN, { expected: "a namespace name, '*' matching any run of characters" }))
    ).check(Schema.isMaxLength(256)).annotate({
      description: "Which namespaces may use this class: namespace names in which * matches any run of characters (e.g. kafka-*). Unset: every namespace; an empty list: none. Enforced at admission for Listeners and listener PVCs (the chart's class-namespaces ValidatingAdmissionPolicy) and by the controller for Listeners made before the rule (Ready=False, reason ClassNotAllowed, no Service).",
      "x-kubernetes-list-type": "set"
    })
  ),
  serviceOverrides: withDefault(
    FreeFormObject.annotate({
      description: "A partial Service deep-merged over the generated Service (after serviceAnnotations), for settings this class does not model."
    }),
    {}
  )
}).annotate({ description: "The exposure policy applied to every Listener that names this class." })
export type ListenerClassSpec = typeof ListenerClassSpec.Type

export const ListenerClass = Schema.Struct({
  apiVersion: optional(Schema.Literal(LISTENER_API_VERSION)),
  kind: optional(Schema.Literal("ListenerClass")),
  metadata: ObjectMeta,
  spec: ListenerClassSpec
}).annotate({
  description: "ListenerClass: how Listeners that name it are exposed in this cluster (Service type, annotations, address preference, node pinning). Set by the cluster administrator."
})
export type ListenerClass = typeof ListenerClass.Type
/** A stored ListenerClass on the wire: defaults may be missing, optional fields may be null. */
export type ListenerClassEncoded = typeof ListenerClass.Encoded
/** The spec as a writer sends it (server-side apply body): defaults may be left out. */
export type ListenerClassSpecEncoded = typeof ListenerClassSpec.Encoded
