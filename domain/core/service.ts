/**
 * corev1.Service: the parts the Listener controller writes (type, ports, selector,
 * traffic policy, load-balancer settings) and reads back (cluster IPs, node ports,
 * load-balancer ingress).
 */
import { Schema } from "effect"
import { NonNegativeInt, optional, PortNumber, StringMap } from "../fields.ts"
import { NamespacedObjectMeta } from "./meta.ts"

export const ServiceType = Schema.Literals(["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"])
export type ServiceType = typeof ServiceType.Type

export const Protocol = Schema.Literals(["TCP", "UDP", "SCTP"])
export type Protocol = typeof Protocol.Type

export const ExternalTrafficPolicy = Schema.Literals(["Cluster", "Local"])
export type ExternalTrafficPolicy = typeof ExternalTrafficPolicy.Type

/** A port number or a named container port (IntOrString). */
export const IntOrString = Schema.Union([Schema.Int, Schema.String])
export type IntOrString = typeof IntOrString.Type

export const ServicePort = Schema.Struct({
  name: optional(Schema.String),
  port: PortNumber,
  protocol: optional(Protocol),
  appProtocol: optional(Schema.String),
  targetPort: optional(IntOrString),
  // 0 is what some clients send for "allocate one"; the server answers with 30000–32767.
  nodePort: optional(NonNegativeInt)
})
export type ServicePort = typeof ServicePort.Type

export const ServiceSpec = Schema.Struct({
  type: optional(ServiceType),
  ports: optional(Schema.Array(ServicePort)),
  selector: optional(StringMap),
  clusterIP: optional(Schema.String),
  clusterIPs: optional(Schema.Array(Schema.String)),
  externalTrafficPolicy: optional(ExternalTrafficPolicy),
  loadBalancerClass: optional(Schema.String),
  allocateLoadBalancerNodePorts: optional(Schema.Boolean),
  publishNotReadyAddresses: optional(Schema.Boolean)
})
export type ServiceSpec = typeof ServiceSpec.Type

export const LoadBalancerIngress = Schema.Struct({
  ip: optional(Schema.String),
  hostname: optional(Schema.String)
})
export type LoadBalancerIngress = typeof LoadBalancerIngress.Type

export const ServiceStatus = Schema.Struct({
  loadBalancer: optional(Schema.Struct({ ingress: optional(Schema.Array(LoadBalancerIngress)) }))
})
export type ServiceStatus = typeof ServiceStatus.Type

export const Service = Schema.Struct({
  apiVersion: optional(Schema.Literal("v1")),
  kind: optional(Schema.Literal("Service")),
  metadata: NamespacedObjectMeta,
  spec: optional(ServiceSpec),
  status: optional(ServiceStatus)
})
export type Service = typeof Service.Type
