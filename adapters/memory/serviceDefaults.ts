/**
 * What the API server does to a Service beyond storing it: v1 defaulting
 * (SetDefaults_Service), cluster IP and node port allocation from the service REST
 * storage, the type-change rules of the strategy, and ValidateService. The controller
 * reads these values back (cluster IPs, node ports), so they must be there.
 *
 * Cluster IPs come from 10.0.0.0/24 (10.0.0.1 belongs to `default/kubernetes`), node
 * ports from 30000-32767; both pick the lowest free value (the real allocators pick at
 * random) so tests are deterministic.
 */
import type { FieldError } from "./errors.ts"
import { duplicate, forbiddenField, invalid, notSupported, required } from "./errors.ts"
import { isObject } from "./json.ts"
import type { JsonObject } from "./json.ts"
import { dnsLabelProblems, validateLabels } from "./validation.ts"

export const SERVICE_CIDR_PREFIX = "10.0.0."
export const KUBERNETES_SERVICE_IP = "10.0.0.1"
export const NODE_PORT_MIN = 30000
export const NODE_PORT_MAX = 32767

const PORT_NAME_TEXT =
  "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-), must contain at least one letter (a-z), must not contain consecutive hyphens (--), must not begin or end with a hyphen (-) and must be no more than 15 characters"
const isPortName = (name: string): boolean =>
  name.length <= 15 && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(name) && /[a-z]/.test(name) && !name.includes("--")

const TYPES = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]
const PROTOCOLS = ["SCTP", "TCP", "UDP"]

const spec = (svc: JsonObject): JsonObject => {
  if (!isObject(svc["spec"])) svc["spec"] = {}
  return svc["spec"] as JsonObject
}

const ports = (svc: JsonObject): Array<JsonObject> => {
  const list = spec(svc)["ports"]
  return Array.isArray(list) ? list.filter(isObject) : []
}

const externallyAccessible = (s: JsonObject): boolean =>
  s["type"] === "LoadBalancer" || s["type"] === "NodePort" ||
  (s["type"] === "ClusterIP" && Array.isArray(s["externalIPs"]) && s["externalIPs"].length > 0)

/** SetDefaults_Service: applied to every Service the server decodes (create, update, patch, apply). */
export const defaultService = (svc: JsonObject): void => {
  const s = spec(svc)
  if (s["sessionAffinity"] === undefined || s["sessionAffinity"] === "") s["sessionAffinity"] = "None"
  if (s["sessionAffinity"] === "None") delete s["sessionAffinityConfig"]
  if (s["type"] === undefined || s["type"] === "") s["type"] = "ClusterIP"
  for (const port of ports(svc)) {
    if (port["protocol"] === undefined || port["protocol"] === "") port["protocol"] = "TCP"
    if (port["targetPort"] === undefined || port["targetPort"] === 0 || port["targetPort"] === "") {
      port["targetPort"] = port["port"]
    }
  }
  if (externallyAccessible(s) && (s["externalTrafficPolicy"] === undefined || s["externalTrafficPolicy"] === "")) {
    s["externalTrafficPolicy"] = "Cluster"
  }
  if (s["internalTrafficPolicy"] === undefined && ["NodePort", "LoadBalancer", "ClusterIP"].includes(s["type"] as string)) {
    s["internalTrafficPolicy"] = "Cluster"
  }
  if (s["type"] === "LoadBalancer" && s["allocateLoadBalancerNodePorts"] === undefined) {
    s["allocateLoadBalancerNodePorts"] = true
  }
}

const needsClusterIP = (s: JsonObject): boolean => s["type"] !== "ExternalName"
const needsNodePort = (s: JsonObject): boolean =>
  s["type"] === "NodePort" || (s["type"] === "LoadBalancer" && s["allocateLoadBalancerNodePorts"] !== false)
const isHeadless = (s: JsonObject): boolean => s["clusterIP"] === "None"

/** Cluster IPs and node ports already taken by other Services. */
export interface ServiceAllocations {
  readonly clusterIPs: ReadonlySet<string>
  readonly nodePorts: ReadonlySet<number>
}

export const allocationsOf = (services: Iterable<JsonObject>): ServiceAllocations => {
  const clusterIPs = new Set<string>()
  const nodePorts = new Set<number>()
  for (const svc of services) {
    const s = isObject(svc["spec"]) ? svc["spec"] : {}
    for (const ip of Array.isArray(s["clusterIPs"]) ? s["clusterIPs"] : [s["clusterIP"]]) {
      if (typeof ip === "string" && ip !== "" && ip !== "None") clusterIPs.add(ip)
    }
    for (const port of Array.isArray(s["ports"]) ? s["ports"] : []) {
      if (isObject(port) && typeof port["nodePort"] === "number" && port["nodePort"] !== 0) nodePorts.add(port["nodePort"])
    }
  }
  return { clusterIPs, nodePorts }
}

const sameNodePorts = (a: JsonObject, b: JsonObject): boolean => {
  const pa = ports(a)
  const pb = ports(b)
  return pa.length === pb.length && pa.every((p, i) => (p["nodePort"] ?? 0) === (pb[i]!["nodePort"] ?? 0))
}

/**
 * The allocation step of create and update: fills cluster IPs, IP families and node
 * ports, keeps the old values on update when the request omitted them, and drops those a
 * type change makes meaningless. Returns field errors for unusable requested values.
 */
export const allocateService = (svc: JsonObject, old: JsonObject | undefined, taken: ServiceAllocations): Array<FieldError> => {
  const s = spec(svc)
  const errors: Array<FieldError> = []
  if (old !== undefined) {
    const os = spec(old)
    if (needsClusterIP(os) && !needsClusterIP(s)) {
      delete s["clusterIP"]
      delete s["clusterIPs"]
      delete s["ipFamilies"]
      delete s["ipFamilyPolicy"]
    }
    if (needsNodePort(os) && !needsNodePort(s) && sameNodePorts(old, svc)) {
      for (const port of ports(svc)) delete port["nodePort"]
    }
    if (os["type"] === "LoadBalancer" && s["type"] !== "LoadBalancer" &&
      s["allocateLoadBalancerNodePorts"] === os["allocateLoadBalancerNodePorts"]) {
      delete s["allocateLoadBalancerNodePorts"]
    }
    if (externallyAccessible(os) && !externallyAccessible(s) && s["externalTrafficPolicy"] === os["externalTrafficPolicy"]) {
      delete s["externalTrafficPolicy"]
    }
    if (needsClusterIP(os) && needsClusterIP(s)) {
      if (s["clusterIP"] === undefined || s["clusterIP"] === "") s["clusterIP"] = os["clusterIP"]
      if (!Array.isArray(s["clusterIPs"]) || s["clusterIPs"].length === 0) s["clusterIPs"] = os["clusterIPs"]
      if (s["ipFamilies"] === undefined) s["ipFamilies"] = os["ipFamilies"]
      if (s["ipFamilyPolicy"] === undefined) s["ipFamilyPolicy"] = os["ipFamilyPolicy"]
    }
    if (needsNodePort(os) && needsNodePort(s)) {
      const byName = new Map(ports(old).map((p) => [p["name"] ?? "", p["nodePort"]]))
      const used = new Set(ports(svc).map((p) => p["nodePort"]).filter((n) => typeof n === "number" && n !== 0))
      for (const port of ports(svc)) {
        if (port["nodePort"] === undefined || port["nodePort"] === 0) {
          const previous = byName.get(port["name"] ?? "")
          if (typeof previous === "number" && previous !== 0 && !used.has(previous)) port["nodePort"] = previous
        }
      }
    }
    if (s["type"] !== "LoadBalancer" && isObject(svc["status"])) svc["status"] = { loadBalancer: {} }
  }

  const ownIPs = new Set(old === undefined ? [] : allocationsOf([old]).clusterIPs)
  const ownPorts = new Set(old === undefined ? [] : allocationsOf([old]).nodePorts)
  if (needsClusterIP(s)) {
    const requested = typeof s["clusterIP"] === "string" && s["clusterIP"] !== "" ? s["clusterIP"] : undefined
    if (requested === undefined) {
      for (let host = 1; host < 255; host++) {
        const ip = `${SERVICE_CIDR_PREFIX}${host}`
        if (!taken.clusterIPs.has(ip)) {
          s["clusterIP"] = ip
          break
        }
      }
      if (s["clusterIP"] === undefined) {
        errors.push(invalid("spec.clusterIPs", [], "failed to allocate IP: range is full"))
      }
    } else if (requested !== "None" && !ownIPs.has(requested)) {
      const host = requested.startsWith(SERVICE_CIDR_PREFIX) ? Number(requested.slice(SERVICE_CIDR_PREFIX.length)) : NaN
      if (!(Number.isInteger(host) && host >= 1 && host <= 254)) {
        errors.push(invalid("spec.clusterIPs", [requested], `failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is 10.0.0.0/24`))
      } else if (taken.clusterIPs.has(requested)) {
        errors.push(invalid("spec.clusterIPs", [requested], `failed to allocate IP ${requested}: provided IP is already allocated`))
      }
    }
    if (typeof s["clusterIP"] === "string") {
      if (!Array.isArray(s["clusterIPs"]) || s["clusterIPs"].length === 0) s["clusterIPs"] = [s["clusterIP"]]
      if (s["ipFamilyPolicy"] === undefined) s["ipFamilyPolicy"] = "SingleStack"
      if (s["ipFamilies"] === undefined) s["ipFamilies"] = ["IPv4"]
    }
  }

  if (needsNodePort(s)) {
    const usedHere = new Set<number>()
    ports(svc).forEach((port, i) => {
      const n = port["nodePort"]
      if (typeof n !== "number" || n === 0) return
      if (n < NODE_PORT_MIN || n > NODE_PORT_MAX) {
        errors.push(invalid(`spec.ports[${i}].nodePort`, n, `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`))
      } else if (taken.nodePorts.has(n) && !ownPorts.has(n)) {
        errors.push(invalid(`spec.ports[${i}].nodePort`, n, "provided port is already allocated"))
      }
      usedHere.add(n)
    })
    let candidate = NODE_PORT_MIN
    for (const port of ports(svc)) {
      if (typeof port["nodePort"] === "number" && port["nodePort"] !== 0) continue
      while (candidate <= NODE_PORT_MAX && (taken.nodePorts.has(candidate) || usedHere.has(candidate))) candidate++
      if (candidate > NODE_PORT_MAX) {
        errors.push(invalid("spec.ports", [], "failed to allocate a nodePort: range is full"))
        break
      }
      port["nodePort"] = candidate
      usedHere.add(candidate)
    }
  }
  return errors
}

/** ValidateService (create) and the immutability rules of ValidateServiceUpdate. */
export const validateService = (svc: JsonObject, old: JsonObject | undefined): Array<FieldError> => {
  const s = spec(svc)
  const errors: Array<FieldError> = []
  const list = ports(svc)
  const type = s["type"]
  if (list.length === 0 && !isHeadless(s) && type !== "ExternalName") errors.push(required("spec.ports"))
  const names = new Set<string>()
  const keys = new Set<string>()
  const nodePorts = new Set<string>()
  list.forEach((port, i) => {
    const path = `spec.ports[${i}]`
    const name = typeof port["name"] === "string" ? port["name"] : ""
    if (list.length > 1 && name === "") errors.push(required(`${path}.name`))
    else if (name !== "") {
      for (const p of dnsLabelProblems(name)) errors.push(invalid(`${path}.name`, name, p))
      if (names.has(name)) errors.push(duplicate(`${path}.name`, name))
      names.add(name)
    }
    const portNumber = port["port"]
    if (typeof portNumber !== "number" || !Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) {
      errors.push(invalid(`${path}.port`, portNumber ?? 0, "must be between 1 and 65535, inclusive"))
    }
    const protocol = port["protocol"]
    if (typeof protocol !== "string" || protocol === "") errors.push(required(`${path}.protocol`))
    else if (!PROTOCOLS.includes(protocol)) errors.push(notSupported(`${path}.protocol`, protocol, PROTOCOLS))
    const target = port["targetPort"]
    if (typeof target === "number" && (target < 1 || target > 65535)) {
      errors.push(invalid(`${path}.targetPort`, target, "must be between 1 and 65535, inclusive"))
    } else if (typeof target === "string" && !isPortName(target)) {
      errors.push(invalid(`${path}.targetPort`, target, PORT_NAME_TEXT))
    }
    if (type === "ClusterIP" && typeof port["nodePort"] === "number" && port["nodePort"] !== 0) {
      errors.push(forbiddenField(`${path}.nodePort`, "may not be used when `type` is 'ClusterIP'"))
    }
    if (typeof port["nodePort"] === "number" && port["nodePort"] !== 0) {
      const key = `${protocol}/${port["nodePort"]}`
      if (nodePorts.has(key)) errors.push(duplicate(`${path}.nodePort`, port["nodePort"]))
      nodePorts.add(key)
    }
    const key = `${protocol}/${portNumber}`
    if (keys.has(key)) errors.push(duplicate(path, { port: portNumber, protocol }))
    keys.add(key)
  })
  if (s["selector"] !== undefined) errors.push(...validateLabels(s["selector"], "spec.selector"))
  const affinity = s["sessionAffinity"]
  if (affinity === undefined || affinity === "") errors.push(required("spec.sessionAffinity"))
  else if (affinity !== "None" && affinity !== "ClientIP") {
    errors.push(notSupported("spec.sessionAffinity", affinity, ["ClientIP", "None"]))
  }
  if (type === undefined || type === "") errors.push(required("spec.type"))
  else if (!TYPES.includes(type as string)) errors.push(notSupported("spec.type", type, TYPES))
  if (type === "ExternalName" && (typeof s["externalName"] !== "string" || s["externalName"] === "")) {
    errors.push(required("spec.externalName"))
  }
  if (s["allocateLoadBalancerNodePorts"] !== undefined && type !== "LoadBalancer") {
    errors.push(forbiddenField("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"))
  }
  if (s["loadBalancerClass"] !== undefined && type !== "LoadBalancer") {
    errors.push(forbiddenField("spec.loadBalancerClass", "may only be used when service type is 'LoadBalancer'"))
  }
  const etp = s["externalTrafficPolicy"]
  if (etp !== undefined && etp !== "") {
    if (!externallyAccessible(s)) {
      errors.push(invalid("spec.externalTrafficPolicy", etp, "may only be set for externally-accessible services"))
    } else if (etp !== "Cluster" && etp !== "Local") {
      errors.push(notSupported("spec.externalTrafficPolicy", etp, ["Cluster", "Local"]))
    }
  } else if (externallyAccessible(s)) {
    errors.push(required("spec.externalTrafficPolicy"))
  }
  if (old !== undefined) {
    const os = spec(old)
    if (needsClusterIP(os) && needsClusterIP(s) && typeof os["clusterIP"] === "string" && s["clusterIP"] !== os["clusterIP"]) {
      errors.push(invalid("spec.clusterIPs[0]", s["clusterIP"] ?? "", "may not change once set"))
    }
  }
  return errors
}

/** The `default/kubernetes` Service the API server keeps for itself. */
export const kubernetesService = (): JsonObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: {
    name: "kubernetes",
    namespace: "default",
    labels: { component: "apiserver", provider: "kubernetes" }
  },
  spec: {
    clusterIP: KUBERNETES_SERVICE_IP,
    clusterIPs: [KUBERNETES_SERVICE_IP],
    ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: 6443 }]
  }
})
