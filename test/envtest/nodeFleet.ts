/**
 * Many node plugins on one real control plane, for the node role's scale benchmark
 * (bench/nodeScale.bench.ts) and its integration tests: the real kube-apiserver and etcd
 * (no controller manager, no scheduler — nothing else sends requests), the CRDs, our
 * controller role, and `nodes` fake Nodes each with its own node role composed exactly as
 * `run node` composes it, each over its own HTTP client (its own connections and watches,
 * as on a real node) — all in this process, or (`processes`) the controller in a process of
 * its own and the node roles spread over `processes` more (fleetHosts.ts), as on a real
 * cluster where each node plugin has its node's CPU to itself.
 *
 * Volumes are made the way the provisioner and the scheduler leave them — a PVC, its bound
 * PV (name = volume handle) and a Pod bound to the node — and published by calling the node
 * plugin's CSI socket with the request the kubelet sends (test/envtest/kubeletPublishShape.ts):
 * a kubelet stand-in per node would add its own Pod watch and requests to what is counted.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Duration } from "effect"
import { CSI_DRIVER_NAME, LISTENER_API_VERSION, STORAGE_CLASS_NAME } from "../../domain/constants.ts"
import { connectCsi, CsiCallError } from "./csiClient.ts"
import type { CsiClient } from "./csiClient.ts"
import { startControlPlane } from "./controlPlane.ts"
import type { ControlPlane } from "./controlPlane.ts"
import { createFakeNode } from "./fakeNodes.ts"
import { forkedHost, inProcessHost } from "./fleetHosts.ts"
import type { FleetHost } from "./fleetHosts.ts"
import type { ProcessSample } from "./fleetProbe.ts"
import { fleetSocketOf } from "./fleetRoles.ts"
import { createNamespace, eventually } from "./kubeClient.ts"
import type { KubeClient, KubeObject } from "./kubeClient.ts"
import { createListenerCrds } from "./listenerCrds.ts"

export const FLEET_NAMESPACE = "fleet"
export const FLEET_CLASSES = { nodePort: "fleet-nodeport", loadBalancer: "fleet-lb", headless: "fleet-headless" } as const
const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"

export interface FleetOptions {
  readonly nodes: number
  /**
   * Worker processes for the node roles, each with an equal share of the nodes, plus one
   * for the controller role (fleetWorker.ts). Default: every role in this process.
   */
  readonly processes?: number | undefined
  /** The node roles' safety resync (`--address-refresh-seconds`); default 30 s as the chart. */
  readonly resync?: Duration.Input | undefined
  readonly publishWait?: Duration.Input | undefined
  /** Start with the controller role (default true). */
  readonly controller?: boolean | undefined
  readonly log?: ((line: string) => void) | undefined
  /** Where the roles log (logfmt lines appended); default: only warnings and errors to stderr. */
  readonly logFile?: string | undefined
}

export interface FleetVolume {
  readonly node: string
  readonly pod: KubeObject
  readonly pv: KubeObject
  readonly targetPath: string
}

export interface Fleet {
  readonly plane: ControlPlane
  readonly kube: KubeClient
  readonly dir: string
  readonly nodeNames: ReadonlyArray<string>
  readonly nodeIp: (node: string) => string
  /** Where the roles run: one host (this process), or the controller's and the node roles' worker processes. */
  readonly hosts: ReadonlyArray<FleetHost>
  /** PVC + bound PV + Pod on `node` for a volume of `annotations` (listener-class or listener-name). */
  makeVolume(node: string, name: string, annotations: Record<string, string>): Promise<FleetVolume>
  /** NodePublishVolume as the kubelet sends it; resolves with the gRPC failure, if any. */
  publish(volume: FleetVolume, timeoutMs?: number): Promise<CsiCallError | undefined>
  /** Starts the node roles (after the volumes exist, if the caller wants to count only them). */
  startNodeRoles(): Promise<void>
  stopNodeRoles(): Promise<void>
  /**
   * Watches the volumes' files, by the process holding each volume's node role (where a
   * container on that node would read them); resolves once armed, with a function resolving
   * per volume (same order) with the wall-clock ms (fleetProbe.ts `wallClock`) at which its
   * `default-address/address` first read `address(volume)`.
   */
  watchAddresses(volumes: ReadonlyArray<FleetVolume>, address: (volume: FleetVolume) => string, timeoutMs?: number): Promise<() => Promise<Array<number>>>
  /** Each host's process sample (memory, CPU time and event-loop delay since the last reset). */
  samples(options?: { readonly gc?: boolean; readonly reset?: boolean }): Promise<Array<{ readonly host: string; readonly nodes: number; readonly controller: boolean } & ProcessSample>>
  stop(): Promise<void>
}

const nodeName = (index: number) => `fleet-${String(index).padStart(4, "0")}`
const nodeIpOf = (index: number) => `10.${96 + Math.floor(index / 65536) % 32}.${Math.floor(index / 256) % 256}.${index % 256}`

export async function startNodeFleet(options: FleetOptions): Promise<Fleet> {
  const dir = await mkdtemp(join(tmpdir(), "node-fleet-"))
  const stops: Array<() => Promise<unknown>> = []
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined)
    stops.length = 0
    await rm(dir, { recursive: true, force: true })
  }
  try {
    const plane = await startControlPlane({ log: options.log })
    stops.push(() => plane.stop())
    const kube = plane.kube
    await createListenerCrds(kube, { timeoutMs: 60_000, intervalMs: 200 })
    await eventually("Listeners served", () => kube.getOrUndefined(`${LISTENERS}/listenerclasses`), { timeoutMs: 60_000, intervalMs: 200 })
    await createNamespace(kube, FLEET_NAMESPACE, { waitForServiceAccount: false })
    const listenerClass = (name: string, spec: object) =>
      kube.create(`${LISTENERS}/listenerclasses`, { apiVersion: LISTENER_API_VERSION, kind: "ListenerClass", metadata: { name }, spec })
    await listenerClass(FLEET_CLASSES.nodePort, { serviceType: "NodePort" })
    await listenerClass(FLEET_CLASSES.loadBalancer, { serviceType: "LoadBalancer" })
    // Headless: NodePort Services are bounded by the node port range (30000–32767, 2,768
    // ports; envtest's Service CIDR, a /16, holds far more cluster IPs); the rest of a large
    // fleet's per-volume Listeners use this class.
    await listenerClass(FLEET_CLASSES.headless, { serviceType: "ClusterIP", serviceOverrides: { spec: { clusterIP: "None" } } })

    const nodeNames = Array.from({ length: options.nodes }, (_, i) => nodeName(i))
    const ips = new Map(nodeNames.map((name, i) => [name, nodeIpOf(i)]))
    for (const name of nodeNames) {
      await createFakeNode(kube, { name, addresses: [{ type: "InternalIP", address: ips.get(name)! }, { type: "Hostname", address: name }] })
      await mkdir(join(dir, "kubelet", name), { recursive: true })
    }

    const rolesConfig = { kubeconfigPath: plane.kubeconfigPath, dir, resync: options.resync, publishWait: options.publishWait, logFile: options.logFile }
    const controller = options.controller !== false
    const hosts: Array<FleetHost> = []
    stops.push(async () => {
      for (const host of hosts.reverse()) await host.stop().catch(() => undefined)
    })
    const processes = options.processes ?? 0
    if (processes <= 0) {
      hosts.push(await inProcessHost({ ...rolesConfig, controller, nodes: nodeNames }))
    } else {
      const shares = Array.from({ length: Math.min(processes, Math.max(1, nodeNames.length)) }, (_, i) =>
        nodeNames.filter((_, n) => n % processes === i))
      // Started together: each worker loads the code on its own.
      const started = await Promise.allSettled([
        ...(controller ? [forkedHost("controller", { ...rolesConfig, controller: true, nodes: [] })] : []),
        ...shares.map((nodes, i) => forkedHost(`nodes-${i}`, { ...rolesConfig, controller: false, nodes }))
      ])
      for (const outcome of started) if (outcome.status === "fulfilled") hosts.push(outcome.value)
      const failed = started.find((outcome) => outcome.status === "rejected")
      if (failed !== undefined) throw (failed as PromiseRejectedResult).reason
    }
    const hostOf = new Map(hosts.flatMap((host) => host.nodes.map((node) => [node, host] as const)))
    const startNodeRoles = async () => void await Promise.all(hosts.map((host) => host.startNodeRoles()))
    const stopNodeRoles = async () => void await Promise.all(hosts.map((host) => host.stopNodeRoles()))
    stops.push(stopNodeRoles)

    const clients = new Map<string, CsiClient>()
    stops.push(async () => {
      for (const client of clients.values()) client.close()
    })
    const csiOf = (node: string) => {
      const existing = clients.get(node)
      if (existing !== undefined) return existing
      const made = connectCsi(fleetSocketOf(dir, node))
      clients.set(node, made)
      return made
    }
    const makeVolume = async (node: string, name: string, annotations: Record<string, string>): Promise<FleetVolume> => {
      const ns = FLEET_NAMESPACE
      const pvc = await kube.create(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        metadata: { name, namespace: ns, annotations },
        spec: { storageClassName: STORAGE_CLASS_NAME, accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Mi" } }, volumeName: `pv-${name}` }
      })
      const pv = await kube.create("/api/v1/persistentvolumes", {
        apiVersion: "v1",
        kind: "PersistentVolume",
        metadata: { name: `pv-${name}` },
        spec: {
          storageClassName: STORAGE_CLASS_NAME,
          accessModes: ["ReadWriteOnce"],
          capacity: { storage: "1Mi" },
          persistentVolumeReclaimPolicy: "Delete",
          csi: { driver: CSI_DRIVER_NAME, volumeHandle: `pv-${name}`, volumeAttributes: annotations },
          claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: ns, name, uid: pvc.metadata.uid }
        }
      })
      const pod = await kube.create(`/api/v1/namespaces/${ns}/pods`, {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, namespace: ns, labels: { app: name } },
        spec: {
          nodeName: node,
          containers: [{ name: "app", image: "registry.invalid/app:1", ports: [{ name: "http", containerPort: 8080 }] }],
          volumes: [{ name: "listener", persistentVolumeClaim: { claimName: name } }]
        }
      })
      const targetPath = join(dir, "kubelet", node, "pods", pod.metadata.uid!, "volumes", "kubernetes.io~csi", pv.metadata.name!, "mount")
      await mkdir(join(targetPath, ".."), { recursive: true })
      return { node, pod, pv, targetPath }
    }

    const publish = async (volume: FleetVolume, timeoutMs = 120_000) => {
      try {
        await csiOf(volume.node).call("Node", "NodePublishVolume", {
          volume_id: volume.pv.spec.csi.volumeHandle,
          target_path: volume.targetPath,
          volume_capability: { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "SINGLE_NODE_WRITER" } },
          readonly: false,
          volume_context: {
            ...volume.pv.spec.csi.volumeAttributes,
            "csi.storage.k8s.io/pod.name": volume.pod.metadata.name,
            "csi.storage.k8s.io/pod.namespace": FLEET_NAMESPACE,
            "csi.storage.k8s.io/pod.uid": volume.pod.metadata.uid,
            "csi.storage.k8s.io/serviceAccount.name": "default",
            "csi.storage.k8s.io/ephemeral": "false"
          }
        }, timeoutMs)
        return undefined
      } catch (error) {
        if (error instanceof CsiCallError) return error
        throw error
      }
    }

    const watchAddresses = async (volumes: ReadonlyArray<FleetVolume>, address: (volume: FleetVolume) => string, timeoutMs = 60_000) => {
      const armed = await Promise.all(hosts.map(async (host) => {
        const mine = volumes.filter((volume) => hostOf.get(volume.node) === host)
        if (mine.length === 0) return async () => undefined
        const seen = await host.watchAddresses(mine.map((volume) => ({ targetPath: volume.targetPath, address: address(volume) })), timeoutMs)
        return async () => {
          const times = await seen()
          return mine.map((volume, i) => [volume, times[i]!] as const)
        }
      }))
      return async () => {
        const seen = new Map((await Promise.all(armed.map((collect) => collect()))).flatMap((pairs) => pairs ?? []))
        return volumes.map((volume) => seen.get(volume)!)
      }
    }
    const samples = (sampleOptions?: { readonly gc?: boolean; readonly reset?: boolean }) =>
      Promise.all(hosts.map(async (host) => ({ host: host.name, nodes: host.nodes.length, controller: host.controller, ...await host.sample(sampleOptions) })))

    return { plane, kube, dir, nodeNames, nodeIp: (node) => ips.get(node)!, hosts, makeVolume, publish, startNodeRoles, stopNodeRoles, watchAddresses, samples, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** `apiserver_request_total` summed by `VERB resource[/subresource]`. */
export const requestTotals = (metricsText: string): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const line of metricsText.split("\n")) {
    if (!line.startsWith("apiserver_request_total{")) continue
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))
    const value = Number(line.slice(line.lastIndexOf(" ") + 1))
    const resource = labels["subresource"] ? `${labels["resource"]}/${labels["subresource"]}` : labels["resource"]!
    const key = `${labels["verb"]} ${resource}`
    counts.set(key, (counts.get(key) ?? 0) + value)
  }
  return counts
}

/** Watches the API server holds open right now, by resource (`apiserver_longrunning_requests`). */
export const watchesHeld = (metricsText: string): Map<string, number> => {
  const held = new Map<string, number>()
  for (const line of metricsText.split("\n")) {
    if (!line.startsWith("apiserver_longrunning_requests{") || !line.includes('verb="WATCH"')) continue
    const resource = /resource="([^"]*)"/u.exec(line)?.[1] ?? "?"
    held.set(resource, (held.get(resource) ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1)))
  }
  return held
}

export const countsDiff = (before: Map<string, number>, after: Map<string, number>): Map<string, number> => {
  const result = new Map<string, number>()
  for (const [key, value] of after) {
    const delta = value - (before.get(key) ?? 0)
    if (delta > 0) result.set(key, delta)
  }
  return result
}
