/**
 * discovery.k8s.io/v1 EndpointSlice: which nodes back a Service (endpoints' nodeName,
 * ready or not), used to find the nodes a NodePort Listener is reachable on.
 */
import { Schema } from "effect"
import { optional, withDefault } from "../fields.ts"
import { NamespacedObjectMeta, ObjectReference } from "./meta.ts"
import { Protocol } from "./service.ts"

/** Label linking a slice to its Service. */
export const ENDPOINTSLICE_SERVICE_NAME_LABEL = "kubernetes.io/service-name"

export const EndpointConditions = Schema.Struct({
  ready: optional(Schema.Boolean),
  serving: optional(Schema.Boolean),
  terminating: optional(Schema.Boolean)
})
export type EndpointConditions = typeof EndpointConditions.Type

export const Endpoint = Schema.Struct({
  addresses: Schema.Array(Schema.String),
  conditions: optional(EndpointConditions),
  hostname: optional(Schema.String),
  nodeName: optional(Schema.String),
  zone: optional(Schema.String),
  targetRef: optional(ObjectReference)
})
export type Endpoint = typeof Endpoint.Type

export const EndpointPort = Schema.Struct({
  name: optional(Schema.String),
  port: optional(Schema.Int),
  protocol: optional(Protocol),
  appProtocol: optional(Schema.String)
})
export type EndpointPort = typeof EndpointPort.Type

export const EndpointSlice = Schema.Struct({
  apiVersion: optional(Schema.Literal("discovery.k8s.io/v1")),
  kind: optional(Schema.Literal("EndpointSlice")),
  metadata: NamespacedObjectMeta,
  addressType: optional(Schema.Literals(["IPv4", "IPv6", "FQDN"])),
  // The server sends `endpoints: null` for a slice without endpoints.
  endpoints: withDefault(Schema.Array(Endpoint), []),
  ports: optional(Schema.Array(EndpointPort))
})
export type EndpointSlice = typeof EndpointSlice.Type
