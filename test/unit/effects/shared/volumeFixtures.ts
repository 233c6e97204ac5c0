/**
 * A small cluster for the volume program tests, written through the KubeApi port (so it
 * runs on any adapter): a namespace, two nodes, one ListenerClass of each kind, and a
 * helper that creates a PVC + bound PV + Pod the way the provisioner and scheduler would.
 */
import { Effect } from "effect"
import { CSI_DRIVER_NAME, LISTENER_API_VERSION, STORAGE_CLASS_NAME } from "../../../../domain/constants.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import type { PublishVolumeInput } from "../../../../csi/programs.ts"

export const NAMESPACE = "default"

export const CLASS = {
  pinned: "nodeport-pinned",
  nodePort: "nodeport",
  loadBalancer: "lb",
  clusterIp: "cluster"
} as const

const listenerClass = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: LISTENER_API_VERSION,
  kind: "ListenerClass",
  metadata: { name },
  spec
})

const node = (name: string, ip: string): KubeObject => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name, labels: { "kubernetes.io/hostname": name } },
  status: { addresses: [{ type: "InternalIP", address: ip }, { type: "Hostname", address: name }] }
})

/** Nodes `node-1` (10.0.0.1) and `node-2` (10.0.0.2), and the four classes. */
export const seedCluster = Effect.gen(function*() {
  const api = yield* KubeApi
  for (const [name, ip] of [["node-1", "10.0.0.1"], ["node-2", "10.0.0.2"]] as const) {
    const created = yield* api.create(Kinds.Node, node(name, ip))
    yield* api.updateStatus(Kinds.Node, { ...created, status: node(name, ip)["status"] })
  }
  yield* api.create(Kinds.ListenerClass, listenerClass(CLASS.pinned, { serviceType: "NodePort", pinnedNodePorts: true }))
  yield* api.create(Kinds.ListenerClass, listenerClass(CLASS.nodePort, { serviceType: "NodePort" }))
  yield* api.create(Kinds.ListenerClass, listenerClass(CLASS.loadBalancer, { serviceType: "LoadBalancer" }))
  yield* api.create(Kinds.ListenerClass, listenerClass(CLASS.clusterIp, { serviceType: "ClusterIP" }))
})

export interface VolumeSetup {
  readonly pvcName: string
  readonly annotations: Record<string, string>
  readonly pvcLabels?: Record<string, string>
  /** The PV name (= the volume id the provisioner would use). */
  readonly volumeId: string
  /** Leave the PV without claimRef. */
  readonly unbound?: boolean
}

/** A PVC and the PV the provisioner would create for it (name = volume handle = volumeId). */
export const createVolume = (setup: VolumeSetup) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const pvc = yield* api.create(Kinds.PersistentVolumeClaim, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: setup.pvcName, namespace: NAMESPACE, annotations: setup.annotations, labels: setup.pvcLabels ?? {} },
      spec: {
        storageClassName: STORAGE_CLASS_NAME,
        accessModes: ["ReadWriteOnce"],
        resources: { requests: { storage: "1" } }
      }
    })
    const pv = yield* api.create(Kinds.PersistentVolume, {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: setup.volumeId, labels: { keep: "me" } },
      spec: {
        storageClassName: STORAGE_CLASS_NAME,
        accessModes: ["ReadWriteOnce"],
        capacity: { storage: "1" },
        csi: { driver: CSI_DRIVER_NAME, volumeHandle: setup.volumeId, volumeAttributes: setup.annotations },
        ...(setup.unbound === true
          ? {}
          : { claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: NAMESPACE, name: setup.pvcName, uid: pvc.metadata.uid } })
      }
    })
    return { pvc, pv }
  })

export interface PodSetup {
  readonly name: string
  readonly nodeName?: string
  readonly volumes: ReadonlyArray<Record<string, unknown>>
  readonly labels?: Record<string, string>
}

/** A Pod with an app container (ports http/8080 and unnamed UDP 9090) and an init container with a port. */
export const createPod = (setup: PodSetup) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    return yield* api.create(Kinds.Pod, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: setup.name, namespace: NAMESPACE, labels: setup.labels ?? { app: "web" } },
      spec: {
        ...(setup.nodeName !== undefined ? { nodeName: setup.nodeName } : {}),
        initContainers: [{ name: "init", image: "busybox", ports: [{ name: "init-port", containerPort: 7000 }] }],
        containers: [
          {
            name: "app",
            image: "busybox",
            ports: [{ name: "http", containerPort: 8080, protocol: "TCP" }, { containerPort: 9090, protocol: "UDP" }]
          }
        ],
        volumes: setup.volumes
      }
    })
  })

/** Set a Listener's status the way the Listener controller would. */
export const setListenerStatus = (name: string, status: Record<string, unknown>) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const listener = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name })
    return yield* api.updateStatus(Kinds.Listener, { ...listener, status })
  })

/** A Listener bound by name (shared exposure). */
export const createListener = (name: string, spec: Record<string, unknown>) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    return yield* api.create(Kinds.Listener, {
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      metadata: { name, namespace: NAMESPACE },
      spec
    })
  })

export const podContext = (pod: string): Record<string, string> => ({
  "csi.storage.k8s.io/pod.name": pod,
  "csi.storage.k8s.io/pod.namespace": NAMESPACE,
  "csi.storage.k8s.io/ephemeral": "false"
})

/** NodePublishVolume of Pod web-1's volume pvc-2, bound to the Listener `shared`, at `targetPath`. */
export const sharedListenerPublish = (targetPath: string): PublishVolumeInput => ({
  volumeId: "pvc-2",
  targetPath,
  readonly: false,
  capability: { accessMode: "MULTI_NODE_MULTI_WRITER", fsType: "", mountFlags: [] },
  pod: { namespace: NAMESPACE, name: "web-1", uid: undefined },
  listener: { _tag: "ListenerName", listenerName: "shared" },
  volumeContext: podContext("web-1")
})

/** A Listener status with the single load-balancer address `ip` (port http 443). */
export const loadBalancerStatus = (ip: string) => ({ ingressAddresses: [{ address: ip, addressType: "IP", ports: { http: 443 } }] })
