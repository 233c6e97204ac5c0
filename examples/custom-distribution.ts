/**
 * A custom distribution in one file, using only the library API (`mod.ts`; from the
 * published package: `import { … } from "listener-operator"`):
 *
 * - its own preset: a ListenerClass `corp-external` created at start, instead of the
 *   built-in presets (`preset: "none"`);
 * - both roles in one process — the controller role (Listener controller + CSI
 *   Controller) and the node role (CSI Node) — over the in-memory Kubernetes API, each
 *   serving CSI on a real Unix socket;
 * - a StatefulSet-like flow played by hand: a Node, a PVC and a Pod, CreateVolume on the
 *   controller socket with the Pod's node as the preferred topology, the bound PV, then
 *   NodePublishVolume on the node socket into a target directory, and the files the Pod
 *   would read there.
 *
 * Run it: `npx tsx examples/custom-distribution.ts` (test/unit/examples/customDistribution.test.ts runs it too).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Schedule } from "effect"
import { Adapters, Constants, Csi, Kinds, Operability, Ports, Roles } from "../mod.ts"

/** The distribution's own preset: created if missing, never overwritten (like the built-in ones). */
const CORP_PRESET = [{
  apiVersion: Constants.LISTENER_API_VERSION,
  kind: "ListenerClass",
  metadata: { name: "corp-external" },
  spec: { serviceType: "NodePort", pinnedNodePorts: true, serviceAnnotations: { "corp.example/exposed-by": "listener-operator" } }
}]

const applyCorpPreset = Effect.gen(function*() {
  const api = yield* Ports.KubeApi
  for (const listenerClass of CORP_PRESET) {
    yield* api.create(Kinds.Kinds.ListenerClass, listenerClass).pipe(
      Effect.catchTag("KubeApiError", (error) => (error.reason === "AlreadyExists" ? Effect.void : Effect.fail(error)))
    )
  }
})

export interface ExampleResult {
  /** What the Pod finds in its volume: `default-address/address` and the port files. */
  readonly address: string
  readonly ports: Readonly<Record<string, string>>
  /** The Listener's reported addresses. */
  readonly listenerAddresses: ReadonlyArray<string>
}

export const runExample = (dir: string): Effect.Effect<ExampleResult, unknown> => {
  const controllerSocket = join(dir, "controller.sock")
  const nodeSocket = join(dir, "node.sock")
  const roles = Layer.mergeAll(
    Roles.controllerRoleLayer({ csiEndpoint: controllerSocket, clusterDomain: "cluster.local", preset: "none", vendorVersion: "corp-1", instance: "corp" }),
    Roles.nodeRoleLayer({ csiEndpoint: nodeSocket, nodeName: "node-1", vendorVersion: "corp-1" })
  )
  const cluster = Adapters.KubeApiMemory.layer()
  return Effect.gen(function*() {
    const api = yield* Ports.KubeApi
    yield* applyCorpPreset
    const node = yield* api.create(Kinds.Kinds.Node, { apiVersion: "v1", kind: "Node", metadata: { name: "node-1" } })
    yield* api.updateStatus(Kinds.Kinds.Node, { ...node, status: { addresses: [{ type: "ExternalIP", address: "198.51.100.7" }] } })
    const pvc = yield* api.create(Kinds.Kinds.PersistentVolumeClaim, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "listener-broker-0", namespace: "default", annotations: { "listeners.stackable.tech/listener-class": "corp-external" } },
      spec: { storageClassName: Constants.STORAGE_CLASS_NAME, accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
    })
    const pod = yield* api.create(Kinds.Kinds.Pod, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "broker-0", namespace: "default" },
      spec: {
        nodeName: "node-1",
        containers: [{ name: "broker", image: "corp/broker", ports: [{ name: "kafka", containerPort: 9092 }] }],
        volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "listener-broker-0" } }]
      }
    })

    // What csi-provisioner does: CreateVolume on the controller socket, then the PV.
    const controller = yield* Csi.makeCsiClient(controllerSocket)
    const created = yield* controller.call("Controller", "CreateVolume", {
      name: `pvc-${pvc.metadata.uid}`,
      volume_capabilities: [{ mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" } }],
      parameters: { "csi.storage.k8s.io/pvc/name": "listener-broker-0", "csi.storage.k8s.io/pvc/namespace": "default" },
      accessibility_requirements: { requisite: [], preferred: [{ segments: { [Constants.TOPOLOGY_KEY_HOSTNAME]: "node-1" } }] }
    })
    const volume = created.volume
    // A pinned class answers with one topology: the provisioner turns it into the PV's node affinity.
    const pinnedTo = volume.accessible_topology.flatMap((t) => t.segments[Constants.TOPOLOGY_KEY_HOSTNAME] ?? [])
    yield* api.create(Kinds.Kinds.PersistentVolume, {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: volume.volume_id },
      spec: {
        storageClassName: Constants.STORAGE_CLASS_NAME,
        accessModes: ["ReadWriteMany"],
        capacity: { storage: "1" },
        csi: { driver: Constants.CSI_DRIVER_NAME, volumeHandle: volume.volume_id, volumeAttributes: volume.volume_context },
        claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: "default", name: "listener-broker-0", uid: pvc.metadata.uid },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: Constants.TOPOLOGY_KEY_HOSTNAME, operator: "In", values: pinnedTo }] }] } }
      }
    })

    // What the kubelet does: NodePublishVolume on the node socket, retried until the Listener has addresses.
    const target = join(dir, "pods", pod.metadata.uid!, "volumes", "kubernetes.io~csi", volume.volume_id, "mount")
    mkdirSync(join(target, ".."), { recursive: true })
    const nodePlugin = yield* Csi.makeCsiClient(nodeSocket)
    yield* nodePlugin.call("Node", "NodePublishVolume", {
      volume_id: volume.volume_id,
      target_path: target,
      volume_capability: { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" } },
      volume_context: {
        ...volume.volume_context,
        "csi.storage.k8s.io/pod.name": "broker-0",
        "csi.storage.k8s.io/pod.namespace": "default",
        "csi.storage.k8s.io/pod.uid": pod.metadata.uid!
      }
    }).pipe(Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo({ times: 100 }))))

    // The Listener controller reports the same address on the Listener's status.
    const status = yield* api.get(Kinds.Kinds.Listener, { namespace: "default", name: "listener-broker-0" }).pipe(
      Effect.map((listener) => listener.status as { ingressAddresses?: Array<{ address: string }> } | undefined),
      Effect.filterOrFail((s) => (s?.ingressAddresses ?? []).length > 0, () => new Error("the Listener has no addresses yet")),
      Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo({ times: 100 })))
    )
    return {
      address: readFileSync(join(target, "default-address", "address"), "utf8"),
      ports: { kafka: readFileSync(join(target, "default-address", "ports", "kafka"), "utf8") },
      listenerAddresses: (status?.ingressAddresses ?? []).map((a) => a.address)
    }
  }).pipe(
    Effect.scoped,
    Effect.provide(roles.pipe(Layer.provideMerge(Layer.mergeAll(cluster, Operability.Readiness.layer)))),
    // The roles' logs (e.g. the first publish answering UNAVAILABLE) would interleave with the output.
    Effect.provide(Operability.loggingLayer({ level: "Error", format: "text" }))
  )
}

if (process.argv[1] === import.meta.filename) {
  const dir = mkdtempSync(join(tmpdir(), "custom-distribution-"))
  Effect.runPromise(runExample(dir)).then(
    (result) => {
      process.stdout.write(`broker-0 reads /listener/default-address/address = ${result.address}, ports ${JSON.stringify(result.ports)}\n`)
      process.stdout.write(`Listener listener-broker-0 reports ${result.listenerAddresses.join(", ")}\n`)
      rmSync(dir, { recursive: true, force: true })
    },
    (error: unknown) => {
      rmSync(dir, { recursive: true, force: true })
      process.stderr.write(`${String(error)}\n`)
      process.exitCode = 1
    }
  )
}
