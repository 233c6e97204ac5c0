/**
 * `listener-operator demo` (default): the operator working within seconds, with no Go
 * toolchain and no cluster — the in-memory Kubernetes API (adapters/KubeApiMemory.ts)
 * and filesystem (adapters/VolumeFsMemory.ts). The controller's reconcilers (Listeners,
 * node-loss recovery, the volume binder) and the presets run as in `run controller`; each node runs the node role's own plugin (k8s/roles/nodeRole.ts:
 * target locks, published-volume records, the watch-driven address refresh) over in-memory
 * adapters, as `run node` runs it over the real ones. The in-memory cluster has no scheduler, StatefulSet controller, csi-provisioner
 * or kubelet, so this file plays their part in a few plain steps: create each replica's PVC
 * and Pod, pick a node, provision the volume (CreateVolume with that node as the preferred
 * topology), bind it, and publish it (NodePublishVolume into an in-memory target).
 *
 * The story: two replicas of a StatefulSet on a pinned NodePort class each find their own
 * node's address and node port in their volume; a deleted Pod comes back on the node its
 * volume is pinned to, with the same address.
 */
import { appendFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Fiber, Layer, Logger, References, Schedule } from "effect"
import { EventRecorderKube } from "../adapters/EventRecorderKube.ts"
import { KubeApiMemory } from "../adapters/KubeApiMemory.ts"
import { VolumeFsMemory } from "../adapters/VolumeFsMemory.ts"
import { CSI_DRIVER_NAME, STORAGE_CLASS_NAME, TOPOLOGY_KEY_HOSTNAME } from "../domain/constants.ts"
import { Kinds } from "../domain/kinds.ts"
import { KubeApi } from "../effects/shared/KubeApi.ts"
import type { KubeObject } from "../effects/shared/KubeApi.ts"
import { listenerSelectionOf } from "../effects/shared/listenerSelection.ts"
import { applyPresets } from "../effects/controller/presets.ts"
import { provisionVolume } from "../effects/provisioner/provisionVolume.ts"
import { PublishedVolumes } from "../effects/node/PublishedVolumes.ts"
import { VolumeFs } from "../effects/shared/VolumeFs.ts"
import { VolumePublisher } from "../csi/programs.ts"
import { runReconcilers } from "../k8s/reconcilers.ts"
import { nodePluginLayer } from "../k8s/roles/nodeRole.ts"

const NAMESPACE = "demo"
const NODES = [
  { name: "node-a", addresses: [{ type: "ExternalIP", address: "203.0.113.10" }, { type: "InternalIP", address: "10.1.0.10" }] },
  { name: "node-b", addresses: [{ type: "ExternalIP", address: "203.0.113.20" }, { type: "InternalIP", address: "10.1.0.20" }] }
] as const
const REPLICAS = ["kafka-0", "kafka-1"] as const
const CLASS = "external-stable"

export interface DemoOptions {
  /** Receives each line of the story. */
  readonly say: (line: string) => void
  /** Role logs: a file path, or "stderr". */
  readonly logs: string
}

interface Replica {
  readonly pod: KubeObject
  readonly node: string
  readonly targetPath: string
}

/** What a Pod finds under its mount path: every address with its ports, and where default-address leads. */
const readVolume = (target: string) =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const addresses: Array<{ address: string; ports: Record<string, string> }> = []
    for (const name of yield* fs.readDir(`${target}/addresses`)) {
      const ports: Record<string, string> = {}
      for (const port of yield* fs.readDir(`${target}/addresses/${name}/ports`)) ports[port] = yield* fs.readFile(`${target}/addresses/${name}/ports/${port}`)
      addresses.push({ address: yield* fs.readFile(`${target}/addresses/${name}/address`), ports })
    }
    const defaultAddress = yield* fs.readFile(`${target}/default-address/address`)
    return { addresses, defaultAddress }
  })

const seedNodes = Effect.gen(function*() {
  const api = yield* KubeApi
  for (const node of NODES) {
    const created = yield* api.create(Kinds.Node, {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: node.name, labels: { "kubernetes.io/hostname": node.name } }
    })
    yield* api.updateStatus(Kinds.Node, { ...created, status: { addresses: node.addresses } })
  }
  yield* api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } })
})

/** Each node's plugin, the node role's own, by node name. */
type NodePlugins = ReadonlyMap<string, VolumePublisher["Service"]>

/** The node role's plugin for every node, over the in-memory API and filesystem (closed with the story's scope). */
const startNodePlugins = Effect.gen(function*() {
  const plugins = new Map<string, VolumePublisher["Service"]>()
  for (const node of NODES) {
    const plugin = nodePluginLayer({ nodeName: node.name }).pipe(Layer.provide(Layer.fresh(PublishedVolumes.layerMemory)))
    plugins.set(node.name, Context.get(yield* Layer.build(plugin), VolumePublisher))
  }
  return plugins as NodePlugins
})

/** The scheduler, csi-provisioner and kubelet steps for one replica on `node`. */
const startReplica = (plugins: NodePlugins, name: string, node: string) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const fs = yield* VolumeFs
    const claimName = `listener-${name}`
    let pvc = yield* Effect.catchTag(api.get(Kinds.PersistentVolumeClaim, { namespace: NAMESPACE, name: claimName }), "KubeApiError", () =>
      api.create(Kinds.PersistentVolumeClaim, {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        metadata: { name: claimName, namespace: NAMESPACE, annotations: { "listeners.stackable.tech/listener-class": CLASS } },
        spec: { storageClassName: STORAGE_CLASS_NAME, accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
      }))
    const pod = yield* api.create(Kinds.Pod, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: NAMESPACE, labels: { app: "kafka" } },
      spec: {
        nodeName: node,
        containers: [{ name: "kafka", image: "example/kafka", ports: [{ name: "kafka", containerPort: 9092 }, { name: "metrics", containerPort: 9404 }] }],
        volumes: [{ name: "listener", persistentVolumeClaim: { claimName } }]
      }
    })
    // csi-provisioner: CreateVolume once per claim, with the scheduler's node first.
    const volumeName = `pvc-${pvc.metadata.uid}`
    const existing = yield* Effect.catchTag(api.get(Kinds.PersistentVolume, { name: volumeName }), "KubeApiError", () => Effect.succeed(undefined))
    if (existing === undefined) {
      const volume = yield* provisionVolume({
        name: volumeName,
        pvc: { namespace: NAMESPACE, name: claimName },
        requisiteTopologies: NODES.map((n) => ({ [TOPOLOGY_KEY_HOSTNAME]: n.name })),
        preferredTopologies: [{ [TOPOLOGY_KEY_HOSTNAME]: node }]
      })
      const pinned = volume.accessibleTopology.map((t) => t[TOPOLOGY_KEY_HOSTNAME]).filter((n): n is string => n !== undefined)
      yield* api.create(Kinds.PersistentVolume, {
        apiVersion: "v1",
        kind: "PersistentVolume",
        metadata: { name: volumeName },
        spec: {
          storageClassName: STORAGE_CLASS_NAME,
          accessModes: ["ReadWriteMany"],
          capacity: { storage: "1" },
          csi: { driver: CSI_DRIVER_NAME, volumeHandle: volume.volumeId, volumeAttributes: volume.volumeContext },
          claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: NAMESPACE, name: claimName, uid: pvc.metadata.uid },
          ...(pinned.length > 0
            ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: TOPOLOGY_KEY_HOSTNAME, operator: "In", values: pinned }] }] } } }
            : {})
        }
      })
      pvc = yield* api.update(Kinds.PersistentVolumeClaim, { ...pvc, spec: { ...(pvc.spec as Record<string, unknown>), volumeName } })
    }
    // The kubelet: create the target's parent, publish; retried while the Listener has no addresses yet.
    const targetPath = `/var/lib/kubelet/pods/${pod.metadata.uid}/volumes/kubernetes.io~csi/${volumeName}/mount`
    yield* fs.mkdir(targetPath.slice(0, targetPath.lastIndexOf("/")), { recursive: true })
    const pv = yield* api.get(Kinds.PersistentVolume, { name: volumeName })
    const volumeContext = {
      ...((pv.spec as { csi: { volumeAttributes: Record<string, string> } }).csi.volumeAttributes),
      "csi.storage.k8s.io/pod.name": name,
      "csi.storage.k8s.io/pod.namespace": NAMESPACE,
      "csi.storage.k8s.io/pod.uid": pod.metadata.uid!
    }
    const listener = listenerSelectionOf(volumeContext, "volume context")
    if (listener._tag === "ListenerSelectionInvalid") return yield* Effect.die(new Error(listener.message))
    const publish = plugins.get(node)!.publish({
      volumeId: volumeName,
      targetPath,
      readonly: false,
      capability: { accessMode: "MULTI_NODE_MULTI_WRITER", fsType: "", mountFlags: [] },
      pod: { namespace: NAMESPACE, name, uid: pod.metadata.uid },
      listener,
      volumeContext
    })
    yield* publish.pipe(
      Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo({ times: 100 })))
    )
    return { pod, node, targetPath } satisfies Replica
  })

/** The scheduler's choice: a new replica goes to the node its pinned volume names, else round robin. */
const nodeFor = (name: string, index: number) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const pvc = yield* Effect.catchTag(api.get(Kinds.PersistentVolumeClaim, { namespace: NAMESPACE, name: `listener-${name}` }), "KubeApiError", () => Effect.succeed(undefined))
    const volumeName = (pvc?.spec as { volumeName?: string } | undefined)?.volumeName
    if (volumeName !== undefined) {
      const pv = yield* api.get(Kinds.PersistentVolume, { name: volumeName })
      const terms = (pv.spec as { nodeAffinity?: { required: { nodeSelectorTerms: Array<{ matchExpressions: Array<{ values: string[] }> }> } } }).nodeAffinity
      const pinned = terms?.required.nodeSelectorTerms[0]?.matchExpressions[0]?.values[0]
      if (pinned !== undefined) return pinned
    }
    return NODES[index % NODES.length]!.name
  })

const story = (say: (line: string) => void) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    yield* seedNodes
    const plugins = yield* startNodePlugins
    const presets = yield* applyPresets("stable-nodes")
    say(`- the controller created the stable-nodes preset ListenerClasses: ${presets.created.join(", ")}`)
    // As `run controller` runs them: the Listener controller, node-loss recovery and the volume binder.
    const controller = yield* Effect.forkChild(runReconcilers({}))
    say(`- 2 nodes: ${NODES.map((n) => `${n.name} (${n.addresses[0]!.address})`).join(", ")}`)
    say(`- StatefulSet kafka, 2 replicas, listener volume of class ${CLASS} (NodePort, pinned): PVC + Pod per replica, scheduled, provisioned, published`)
    const replicas: Replica[] = []
    for (const [index, name] of REPLICAS.entries()) replicas.push(yield* startReplica(plugins, name, yield* nodeFor(name, index)))
    const rows: string[][] = []
    for (const replica of replicas) {
      const volume = yield* readVolume(replica.targetPath)
      const ports = volume.addresses[0]?.ports ?? {}
      say(`- ${replica.pod.metadata.name} on ${replica.node} reads /listener/default-address/address = ${volume.defaultAddress}, ports ${Object.entries(ports).map(([p, n]) => `${p}=${n}`).join(" ")}`)
      rows.push([replica.pod.metadata.name!, replica.node, volume.defaultAddress, Object.entries(ports).map(([p, n]) => `${p}=${n}`).join(" ")])
    }
    for (const name of REPLICAS) {
      const listener = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: `listener-${name}` })
      const addresses = ((listener.status as { ingressAddresses?: Array<{ address: string }> } | undefined)?.ingressAddresses ?? []).map((a) => a.address)
      say(`- Listener listener-${name} (created per replica by the controller, bound to its node) reports ${addresses.join(", ")}`)
    }
    const victim = replicas[0]!
    say(`- deleting ${victim.pod.metadata.name}: the kubelet unpublishes, the StatefulSet recreates it; its volume is pinned to ${victim.node}`)
    yield* plugins.get(victim.node)!.unpublish({ volumeId: victim.targetPath.split("/").at(-2)!, targetPath: victim.targetPath })
    // Grace period 0: the kubelet has stopped the containers, the Pod object goes at once.
    yield* api.delete(Kinds.Pod, { namespace: NAMESPACE, name: victim.pod.metadata.name! }, { gracePeriodSeconds: 0 })
    const back = yield* startReplica(plugins, victim.pod.metadata.name!, yield* nodeFor(victim.pod.metadata.name!, 0))
    const again = yield* readVolume(back.targetPath)
    say(`- ${back.pod.metadata.name} is back on ${back.node} and reads the same address: ${again.defaultAddress}`)
    rows[0] = [back.pod.metadata.name!, back.node, again.defaultAddress, rows[0]![3]!]
    yield* Fiber.interrupt(controller)
    return rows
  })

/** A small table, columns padded. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string[] => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()
  return [line(header), ...rows.map(line)]
}

/**
 * Where the roles log unless `verbose`: a file named at the start, so the story stays
 * readable (undefined: stderr).
 */
export const demoLogFile = (verbose: boolean): string | undefined =>
  verbose ? undefined : join(tmpdir(), `listener-operator-demo-${process.pid}.log`)

/** The in-memory demo as `listener-operator demo` and `npm run demo` tell it on stdout. */
export const runMemoryDemoOnStdout = (logs: string | undefined): Effect.Effect<void, unknown> => {
  const say = (line: string) => process.stdout.write(`${line}\n`)
  say(`listener-operator demo — the in-memory cluster: both roles' programs, no Go, no cluster${logs === undefined ? "" : ` (role logs: ${logs})`}`)
  return runMemoryDemo({ say, logs: logs ?? "stderr" })
}

export const runMemoryDemo = (options: DemoOptions): Effect.Effect<void, unknown> => {
  const logger = options.logs === "stderr"
    ? Logger.consoleLogFmt
    : Logger.map(Logger.formatLogFmt, (line: string) => appendFileSync(options.logs, `${line}\n`))
  if (options.logs !== "stderr") writeFileSync(options.logs, "")
  const cluster = Layer.mergeAll(KubeApiMemory.layer(), VolumeFsMemory.layer)
  const events = EventRecorderKube.layer({ reportingController: "listeners.stackable.tech/listener-operator", reportingInstance: "demo" })
  return Effect.gen(function*() {
    const started = Date.now()
    const rows = yield* Effect.scoped(story(options.say))
    options.say("")
    for (const line of table(["POD", "NODE", "ADDRESS", "PORTS"], rows)) options.say(line)
    options.say("")
    options.say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s on the in-memory cluster.`)
    options.say("The same demo on a real local control plane (builds Kubernetes once): npm run demo -- --cluster")
    options.say("On real kubelets and containerd with the chart-installed image (root):  npm run demo -- --real-nodes")
  }).pipe(
    Effect.provide(Layer.provideMerge(events, cluster)),
    Effect.provide(Layer.merge(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, "Debug")))
  )
}

