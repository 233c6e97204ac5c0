/**
 * Listener (namespaced, listeners.stackable.tech/v1alpha1): one exposed service and the
 * addresses it is reachable on (spec §2), plus our status additions (conditions,
 * observedGeneration). Every field, enum and default here also defines the CRD schema
 * (k8s/crds.ts), descriptions included.
 */
import { Schema } from "effect"
import { Condition } from "./condition.ts"
import { LISTENER_API_VERSION } from "./constants.ts"
import { NamespacedObjectMeta } from "./core/meta.ts"
import { DnsLabel, FreeFormObject, NonNegativeInt, optional, PortNumber, StringMap, withDefault } from "./fields.ts"

export const ListenerProtocol = Schema.Literals(["TCP", "UDP", "SCTP"])
export type ListenerProtocol = typeof ListenerProtocol.Type

export const ListenerPort = Schema.Struct({
  name: DnsLabel.annotate({
    description: "Name of the port, unique within the Listener: an RFC 1123 label (lower-case letters, digits, '-'; at most 63 characters). Published addresses key their port numbers by this name."
  }),
  port: PortNumber.annotate({ description: "Port number the Pods listen on (1–65535). The exposed port may differ; read it from status." }),
  protocol: withDefault(
    ListenerProtocol.annotate({ description: "Layer-4 protocol: TCP (default), UDP or SCTP." }),
    "TCP"
  )
}).annotate({ description: "A port exposed from the Pods that mount the Listener." })
export type ListenerPort = typeof ListenerPort.Type

/** Port names are the list-map key: a second port with a name already used is refused. */
const uniquePortNames = Schema.makeFilter<ReadonlyArray<{ readonly name: string }>>((ports) => {
  const firstIndex = new Map<string, number>()
  const duplicates: Array<Schema.FilterIssue> = []
  ports.forEach((port, index) => {
    const first = firstIndex.get(port.name)
    if (first === undefined) firstIndex.set(port.name, index)
    else duplicates.push({ path: [index, "name"], issue: `Duplicate port name ${JSON.stringify(port.name)} (already used by port ${first})` })
  })
  return duplicates
}, { expected: "unique port names" })

export const ListenerPorts = Schema.Array(ListenerPort)
  .annotate({
    description: "The ports exposed from the Pods. Names are unique.",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["name"]
  })
  .check(uniquePortNames)

export const ListenerSpec = Schema.Struct({
  className: optional(Schema.String.annotate({
    description: "Name of the ListenerClass that decides how this Listener is exposed. Without it (or while the class does not exist) no Service is created."
  })),
  ports: withDefault(ListenerPorts, []),
  extraPodSelectorLabels: withDefault(
    StringMap.annotate({
      description: "Extra labels a Pod must carry to receive traffic, on top of mounting the Listener as a volume (which is still required)."
    }),
    {}
  ),
  publishNotReadyAddresses: withDefault(
    Schema.Boolean.annotate({
      description: "Whether traffic also goes to Pods that are not Ready. Defaults to true."
    }),
    true
  ),
  objectOverrides: withDefault(
    Schema.Array(FreeFormObject.annotate({
      description: "A partial Kubernetes object, matched by apiVersion, kind, namespace and name."
    })).annotate({
      description: "Partial objects deep-merged into the objects created for this Listener (such as its Service), matched by apiVersion, kind, namespace and name."
    }),
    []
  )
}).annotate({ description: "What to expose: the class to use and the Pods' ports." })
export type ListenerSpec = typeof ListenerSpec.Type

export const AddressType = Schema.Literals(["IP", "Hostname"])
export type AddressType = typeof AddressType.Type

/** Exposed port numbers keyed by port name. */
export const PortMap = Schema.Record(Schema.String, PortNumber)
export type PortMap = typeof PortMap.Type

/** One address a Listener is reachable on, with the exposed port numbers. */
export const ListenerIngress = Schema.Struct({
  address: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "Hostname or IP address." }),
  addressType: AddressType.annotate({ description: "IP for an IP address, Hostname for a DNS name." }),
  ports: PortMap.annotate({
    description: "Exposed port number for each port name of .spec.ports. May differ from .spec.ports[].port (for example a node port)."
  })
}).annotate({ description: "An address the Listener is reachable on, with the port numbers exposed there." })
export type ListenerIngress = typeof ListenerIngress.Type

export const ListenerStatus = Schema.Struct({
  serviceName: optional(Schema.String.annotate({ description: "Name of the Service backing this Listener." })),
  ingressAddresses: optional(Schema.Array(ListenerIngress).annotate({
    description: "Every address the Listener is reachable on. Read port numbers from here, not from .spec.ports."
  })),
  nodePorts: optional(PortMap.annotate({
    description: "Node port for each port name; set only for NodePort classes. Remembered: these ports are requested again whenever the Service is applied, so a Service that was deleted and re-created gets the same node ports back; a port another Service took meanwhile is reported (Ready condition reason NodePortConflict), never replaced. Remove this field to accept new ports. Clients read ports from ingressAddresses."
  })),
  conditions: optional(Schema.Array(Condition).annotate({
    description: "Current state of the Listener. Ready is True once addresses are published; otherwise its reason says why (for example ListenerClassNotFound, ServiceConflict, AwaitingAddresses).",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["type"]
  })),
  observedGeneration: optional(NonNegativeInt.annotate({
    description: "The .metadata.generation this status was computed from."
  }))
}).annotate({ description: "Where the Listener is reachable, written by the operator." })
export type ListenerStatus = typeof ListenerStatus.Type

export const Listener = Schema.Struct({
  apiVersion: optional(Schema.Literal(LISTENER_API_VERSION)),
  kind: optional(Schema.Literal("Listener")),
  metadata: NamespacedObjectMeta,
  spec: ListenerSpec,
  status: optional(ListenerStatus)
}).annotate({
  description: "Listener: one exposed service. Pods that mount it as a volume receive its traffic and learn its addresses; the ListenerClass decides how it is exposed."
})
export type Listener = typeof Listener.Type
/** A stored Listener on the wire: defaults may be missing, optional fields may be null. */
export type ListenerEncoded = typeof Listener.Encoded
/** The spec as a writer sends it (server-side apply body): defaults may be left out. */
export type ListenerSpecEncoded = typeof ListenerSpec.Encoded
export type ListenerStatusEncoded = typeof ListenerStatus.Encoded
