/**
 * The workloads the upstream operator is recorded with (record.ts): the shapes of its own
 * examples and end-to-end tests — a StatefulSet with volumeClaimTemplates naming a
 * listener class (NodePort pinned to its node), a Listener shared by the replicas of a
 * StatefulSet through `listener-name`, generic ephemeral volumes (NodePort not pinned, and
 * ClusterIP), and a LoadBalancer whose ingress the recorder sets. Every replica prints its
 * listener address and serves its own name (workloads.ts of the e2e suite).
 */
import { LISTENER_API_VERSION, PVC_ANNOTATION_LISTENER_NAME } from "../../domain/constants.ts"
import { ephemeralPod, HTTP_PORT, listenerClass, statefulSet } from "../e2e/workloads.ts"

/** The namespace of the recorded workloads. */
export const UPSTREAM_NS = "upstream"
export const UPSTREAM_NODES = ["node-a", "node-b"] as const
/** The namespace and Service name the upstream chart gives its operator (conversion webhook). */
export const UPSTREAM_OPERATOR_NAMESPACE = "stackable-operators"
export const UPSTREAM_OPERATOR_SERVICE = "listener-operator"
/** The load-balancer address the recorder hands out: only ever written into files, never dialled. */
export const UPSTREAM_LB_ADDRESS = "203.0.113.10"

/** Classes of our own on top of the upstream preset (cluster-internal, external-unstable, external-stable). */
export const scenarioClasses = [
  listenerClass("pinned-nodeport", { serviceType: "NodePort", pinnedNodePorts: true })
]

/** The shared Listener: pre-created by the user, named by the volumes of `shared-*`. */
export const sharedListener = {
  apiVersion: LISTENER_API_VERSION,
  kind: "Listener",
  metadata: { name: "shared", namespace: UPSTREAM_NS },
  spec: { className: "external-unstable", ports: [{ name: "http", port: HTTP_PORT, protocol: "TCP" }] }
}

const sharedStatefulSet = (() => {
  const set = statefulSet("shared", UPSTREAM_NS, "external-unstable", 2)
  const [template] = set.spec.volumeClaimTemplates
  return {
    ...set,
    spec: {
      ...set.spec,
      volumeClaimTemplates: [{ ...template!, metadata: { name: "listener", annotations: { [PVC_ANNOTATION_LISTENER_NAME]: "shared" } } }]
    }
  }
})()

export const scenarioWorkloads = [
  statefulSet("pinned", UPSTREAM_NS, "pinned-nodeport", 2),
  sharedStatefulSet,
  statefulSet("lb", UPSTREAM_NS, "external-stable", 1),
  ephemeralPod("eph", UPSTREAM_NS, "external-unstable", "node-b"),
  ephemeralPod("internal", UPSTREAM_NS, "cluster-internal", "node-a")
]

/** The Service of the LoadBalancer replica, named after its Listener (= its PVC). */
export const LB_SERVICE = "listener-lb-0"
