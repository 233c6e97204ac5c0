// The controller's volume binder (k8s/volumeBinder.ts) on the real control plane, with the
// chart's RBAC and node admission policy (deploy/manifests/): the node plugin marks its Pod,
// the binder creates the Pod's PodListeners and the volume's per-volume Listener bound to the
// Pod's node, and only that node's plugin (a real Pod-bound token) may then update them. A
// StatefulSet replica moving to another node moves the binding; objects the upstream
// operator (or an older version) wrote, unbound, are taken over the same way. The binder's
// requests are counted where it sends them (every one reaches the API server).
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { join } from "node:path"
import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { mountLabelKey } from "../../domain/constants.ts"
import { KubeApi } from "../../effects/shared/KubeApi.ts"
import { makeVolumeBinder } from "../../k8s/volumeBinder.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"
import { createNamespace, eventually, KubeClient } from "../envtest/kubeClient.ts"
import { refused, serviceAccountToken } from "../envtest/nodeCredential.ts"
import type { KubeObject } from "../envtest/kubeClient.ts"

const DRIVER = "listeners.stackable.tech"
const RELEASE_NS = "listener-operator"
const NODE_SA = "listener-operator-node"
const GROUP = "/apis/listeners.stackable.tech/v1alpha1"
const BOUND_NODE = "listeners.stackable.tech/bound-node"
const NODE_PUBLISHED = "listeners.stackable.tech/node-published"
const CSI_NODE_MANAGER = "listeners.stackable.tech_csi-node"
const VOLUME_BINDER_MANAGER = "listeners.stackable.tech_volume-binder"
const MOUNT_PREFIX = "listener.stackable.tech/mnt."

let plane: ControlPlane
let admin: KubeClient
let runtime: ManagedRuntime.ManagedRuntime<KubeApi | KubeApiHttp, unknown>
const nodeClients: Record<string, KubeClient> = {}
/** The binder's requests, as `<verb> <Kind>`, since the last reset. */
const sent: string[] = []
let binder: Fiber.Fiber<never, unknown> | undefined

const counting = (api: KubeApi["Service"]): KubeApi["Service"] =>
  KubeApi.overriding(api, {
    get: (kind, ref) => Effect.andThen(Effect.sync(() => sent.push(`get ${kind.kind}`)), api.get(kind, ref)),
    create: (kind, object, options) => Effect.andThen(Effect.sync(() => sent.push(`create ${kind.kind}`)), api.create(kind, object, options)),
    patch: (kind, ref, patch, options) => Effect.andThen(Effect.sync(() => sent.push(`patch ${kind.kind}`)), api.patch(kind, ref, patch, options)),
    apply: (kind, object, options) => Effect.andThen(Effect.sync(() => sent.push(`apply ${kind.kind}`)), api.apply(kind, object, options)),
    update: (kind, object, options) => Effect.andThen(Effect.sync(() => sent.push(`update ${kind.kind}`)), api.update(kind, object, options))
  })

/** Starts a binder (a fresh one: its caches list everything again, as after a controller restart). */
const startBinder = () =>
  runtime.runFork(Effect.gen(function*() {
    const api = yield* KubeApi
    return yield* Effect.scoped(Effect.flatMap(makeVolumeBinder, (b) => b.run)).pipe(Effect.provideService(KubeApi, counting(api)))
  }))
const stopBinder = async () => {
  if (binder !== undefined) await runtime.runPromise(Fiber.interrupt(binder))
  binder = undefined
}

/** A node-plugin token, bound to `pod` (what the kubelet asks for). */
const nodeToken = (pod: KubeObject): Promise<string> => serviceAccountToken(admin, RELEASE_NS, NODE_SA, pod)

const pod = (namespace: string, name: string, nodeName: string, claim?: string, serviceAccountName = "default"): KubeObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace },
  spec: {
    nodeName,
    serviceAccountName,
    containers: [{ name: "c", image: "registry.invalid/c:1", ports: [{ name: "http", containerPort: 8080 }] }],
    ...(claim === undefined ? {} : { volumes: [{ name: "listener", persistentVolumeClaim: { claimName: claim } }] })
  }
})

/** A listener-class volume as the provisioner makes it, bound to `team/<claim>`, not pinned; labelled as the node plugin labels it. */
const createVolume = async (claim: string) => {
  await admin.create("/api/v1/namespaces/team/persistentvolumeclaims", {
    metadata: { name: claim, namespace: "team", labels: { app: "kafka" }, annotations: { "listeners.stackable.tech/listener-class": "nodes" } },
    spec: { storageClassName: DRIVER, accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
  })
  return admin.create("/api/v1/persistentvolumes", {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: `pv-${claim}`, labels: { "listeners.stackable.tech/listener-namespace": "team", "listeners.stackable.tech/listener-name": claim } },
    spec: {
      capacity: { storage: "1" },
      accessModes: ["ReadWriteMany"],
      persistentVolumeReclaimPolicy: "Delete",
      storageClassName: DRIVER,
      claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: "team", name: claim },
      csi: { driver: DRIVER, volumeHandle: `pv-${claim}`, volumeAttributes: { "listeners.stackable.tech/listener-class": "nodes" } }
    }
  })
}

/** The node plugin's mark, with its own token. */
const mark = (node: string, target: KubeObject) =>
  nodeClients[node]!.patch(`/api/v1/namespaces/team/pods/${target.metadata.name}`, { metadata: { labels: { [NODE_PUBLISHED]: node } } }, "merge", { fieldManager: CSI_NODE_MANAGER })

const boundTo = (path: string, node: string) =>
  eventually(`${path} bound to ${node}`, async () => {
    const object = await admin.get(path).catch(() => undefined)
    return object?.metadata.labels?.[BOUND_NODE] === node ? object : undefined
  }, { timeoutMs: 30_000, intervalMs: 100 })

const entryPatch = (address: string) => ({ spec: { listeners: { listener: { scope: "Node", ingressAddresses: [{ address, addressType: "IP", ports: { http: 30000 } }] } } } })

before(async () => {
  plane = await startControlPlane()
  admin = plane.kube
  const apply = await plane.kubectl(["apply", "--server-side", "-f", join(import.meta.dirname, "..", "..", "deploy", "manifests")])
  assert.equal(apply.code, 0, apply.stderr)
  runtime = ManagedRuntime.make(KubeApiHttp.layerFromKubeconfigFile(plane.kubeconfigPath) as Layer.Layer<KubeApi | KubeApiHttp>)
  for (const name of ["node-a", "node-b"]) await admin.create("/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name } })
  await createNamespace(admin, "team", { waitForServiceAccount: false })
  await admin.create("/api/v1/namespaces/team/serviceaccounts", { metadata: { name: "default" } }).catch(() => undefined)
  await admin.create(`${GROUP}/listenerclasses`, { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "ListenerClass", metadata: { name: "nodes" }, spec: { serviceType: "NodePort" } })
  for (const node of ["node-a", "node-b"]) {
    const plugin = await admin.create(`/api/v1/namespaces/${RELEASE_NS}/pods`, pod(RELEASE_NS, `plugin-${node}`, node, undefined, NODE_SA))
    nodeClients[node] = new KubeClient({ server: plane.server, caPem: admin.connection.caPem, token: await nodeToken(plugin) })
  }
  binder = startBinder()
  // The policy is in effect once it refuses what it must.
  const probe = await admin.create("/api/v1/namespaces/team/pods", pod("team", "probe", "node-b"))
  await eventually("the node policy is in effect", async () => {
    try {
      await mark("node-a", probe)
      return false
    } catch (error) {
      return error instanceof Error && /may write only Pods scheduled to it/u.test(error.message)
    }
  }, { timeoutMs: 60_000, intervalMs: 500 })
}, { timeout: 240_000 })

after(async () => {
  await stopBinder().catch(() => undefined)
  await runtime?.dispose()
  for (const client of Object.values(nodeClients)) client.close()
  await plane?.stop()
})

test("a marked Pod: the binder creates its PodListeners and per-volume Listener bound to its node and sets its mount label (4 requests); only that node may update them", async () => {
  await createVolume("data-kafka-0")
  const kafka0 = await admin.create("/api/v1/namespaces/team/pods", pod("team", "kafka-0", "node-a", "data-kafka-0"))
  sent.length = 0
  await mark("node-a", kafka0)
  const podListenersPath = `${GROUP}/namespaces/team/podlisteners/pod-${kafka0.metadata.uid}`
  const listenerPath = `${GROUP}/namespaces/team/listeners/data-kafka-0`
  const record = await boundTo(podListenersPath, "node-a")
  const listener = await boundTo(listenerPath, "node-a")
  assert.deepEqual(record.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.uid]), [["Pod", "kafka-0", kafka0.metadata.uid]])
  assert.deepEqual(listener.metadata.ownerReferences?.map((o) => [o.kind, o.name]), [["PersistentVolume", "pv-data-kafka-0"]])
  assert.equal(listener.metadata.labels?.["app"], "kafka", "the claim's labels")
  assert.equal(listener.metadata.labels?.["listeners.stackable.tech/on.node-a"], "true", "in node-a's Listener watch")
  assert.deepEqual((listener["spec"] as { ports: unknown }).ports, [{ name: "http", port: 8080, protocol: "TCP" }])
  // The mount label the Listener's Service selects by, set by the binder (the node may not).
  const labelled = await eventually("kafka-0's mount label", async () => {
    const live = await admin.get("/api/v1/namespaces/team/pods/kafka-0")
    return live.metadata.labels?.[mountLabelKey(listener.metadata.uid!)] === "data-kafka-0" ? live : undefined
  }, { timeoutMs: 30_000, intervalMs: 100 })
  assert.ok(((labelled.metadata.managedFields ?? []) as Array<{ manager?: string; fieldsV1?: unknown }>).some((entry) => entry.manager === VOLUME_BINDER_MANAGER && JSON.stringify(entry.fieldsV1).includes(MOUNT_PREFIX)))
  // Per new Pod with a per-volume listener volume: create PodListeners, read the claim's
  // labels, create the Listener, patch the Pod's mount label.
  await new Promise((resolve) => setTimeout(resolve, 500))
  assert.deepEqual([...sent].sort(), ["create Listener", "create PodListeners", "get PersistentVolumeClaim", "patch Pod"])

  await nodeClients["node-a"]!.patch(podListenersPath, entryPatch("10.0.0.1"), "merge", { fieldManager: CSI_NODE_MANAGER })
  await nodeClients["node-a"]!.patch(listenerPath, { metadata: { labels: { touched: "by-node-a" } } }, "merge", { fieldManager: CSI_NODE_MANAGER })
  assert.match(await refused("node-b rewriting node-a's PodListeners", () =>
    nodeClients["node-b"]!.patch(podListenersPath, entryPatch("6.6.6.6"), "merge")),
    /the node plugin of node node-b may update only objects bound to its node \(listeners\.stackable\.tech\/bound-node\); PodListeners team\/pod-[-0-9a-f]+ is bound to node node-a/u)
  assert.match(await refused("node-b labelling node-a's unpinned per-volume Listener", () =>
    nodeClients["node-b"]!.patch(listenerPath, { metadata: { labels: { pwn: "yes" } } }, "merge")),
    /Listener team\/data-kafka-0 is bound to node node-a/u)
})

test("a replica that moves to another node: the binder re-binds its per-volume Listener; the old node may no longer write it", async () => {
  const listenerPath = `${GROUP}/namespaces/team/listeners/data-kafka-0`
  await admin.delete("/api/v1/namespaces/team/pods/kafka-0", undefined, { gracePeriodSeconds: 0 })
  await eventually("kafka-0 gone", async () => (await admin.getOrUndefined("/api/v1/namespaces/team/pods/kafka-0")) === undefined, { timeoutMs: 30_000 })
  // The StatefulSet's replacement, on node-b, mounting the same claim.
  const moved = await admin.create("/api/v1/namespaces/team/pods", pod("team", "kafka-0", "node-b", "data-kafka-0"))
  sent.length = 0
  await mark("node-b", moved)
  const listener = await boundTo(listenerPath, "node-b")
  assert.equal(listener.metadata.labels?.["listeners.stackable.tech/on.node-b"], "true")
  assert.equal(listener.metadata.labels?.["listeners.stackable.tech/on.node-a"], undefined, "out of node-a's watch")
  await boundTo(`${GROUP}/namespaces/team/podlisteners/pod-${moved.metadata.uid}`, "node-b")
  await new Promise((resolve) => setTimeout(resolve, 500))
  assert.deepEqual([...sent].sort(), ["create PodListeners", "patch Listener", "patch Pod"], "a move costs one patch of the Listener (and the new Pod's mount label)")
  assert.match(await refused("node-a writing the moved replica's Listener", () =>
    nodeClients["node-a"]!.patch(listenerPath, { metadata: { labels: { pwn: "yes" } } }, "merge")),
    /Listener team\/data-kafka-0 is bound to node node-b/u)
  await nodeClients["node-b"]!.patch(listenerPath, { metadata: { labels: { touched: "by-node-b" } } }, "merge", { fieldManager: CSI_NODE_MANAGER })
})

test("takeover: an upstream-shaped PodListeners and per-volume Listener (unbound) are bound when the node marks the Pod, then updated by that node only", async () => {
  const pv = await createVolume("data-zk-0")
  const zk0 = await admin.create("/api/v1/namespaces/team/pods", pod("team", "zk-0", "node-a", "data-zk-0"))
  const podListenersPath = `${GROUP}/namespaces/team/podlisteners/pod-${zk0.metadata.uid}`
  const listenerPath = `${GROUP}/namespaces/team/listeners/data-zk-0`
  // As the upstream operator's node plugin wrote them (its field manager, no binding).
  await admin.patch(podListenersPath, {
    apiVersion: "listeners.stackable.tech/v1alpha1",
    kind: "PodListeners",
    metadata: { name: `pod-${zk0.metadata.uid}`, namespace: "team", ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "zk-0", uid: zk0.metadata.uid }] },
    spec: { listeners: { listener: { scope: "Node", ingressAddresses: [{ address: "10.0.0.1", addressType: "IP", ports: { http: 31000 } }] } } }
  }, "apply", { fieldManager: "listeners.stackable.tech/volume", force: true })
  await admin.patch(listenerPath, {
    apiVersion: "listeners.stackable.tech/v1alpha1",
    kind: "Listener",
    metadata: { name: "data-zk-0", namespace: "team", ownerReferences: [{ apiVersion: "v1", kind: "PersistentVolume", name: pv.metadata.name, uid: pv.metadata.uid }] },
    spec: { className: "nodes", ports: [{ name: "http", port: 8080, protocol: "TCP" }], publishNotReadyAddresses: true }
  }, "apply", { fieldManager: "listeners.stackable.tech/volume", force: true })
  // Before the binding, not even the Pod's own node may write them.
  assert.match(await refused("node-a before the binding", () => nodeClients["node-a"]!.patch(podListenersPath, entryPatch("10.0.0.2"), "merge")), /is bound to no node/u)
  await mark("node-a", zk0)
  const record = await boundTo(podListenersPath, "node-a")
  await boundTo(listenerPath, "node-a")
  const kept = (record["spec"] as { listeners: Record<string, unknown> }).listeners["listener"]
  assert.ok(kept !== undefined, "the upstream entry is kept")
  const updated = await nodeClients["node-a"]!.patch(podListenersPath, entryPatch("10.0.0.2"), "merge", { fieldManager: CSI_NODE_MANAGER })
  assert.match(JSON.stringify(updated["spec"]), /10\.0\.0\.2/u)
  await nodeClients["node-a"]!.patch(listenerPath, { metadata: { labels: { touched: "by-node-a" } } }, "merge", { fieldManager: CSI_NODE_MANAGER })
  assert.match(await refused("node-b after the takeover", () => nodeClients["node-b"]!.patch(podListenersPath, entryPatch("6.6.6.6"), "merge")),
    /is bound to node node-a/u)
  assert.match(await refused("node-b on the taken-over Listener", () => nodeClients["node-b"]!.patch(listenerPath, { metadata: { labels: { pwn: "yes" } } }, "merge")),
    /is bound to node node-a/u)
})

test("mount labels: the binder sets a shared Listener's on the Pods mounting its volume; a node may set none, not even on its own Pod", async () => {
  const shared = await admin.create(`${GROUP}/namespaces/team/listeners`, {
    apiVersion: "listeners.stackable.tech/v1alpha1",
    kind: "Listener",
    metadata: { name: "brokers", namespace: "team" },
    spec: { className: "nodes", ports: [{ name: "http", port: 8080 }] }
  })
  await admin.create("/api/v1/namespaces/team/persistentvolumeclaims", {
    metadata: { name: "shared-web-0", namespace: "team", annotations: { "listeners.stackable.tech/listener-name": "brokers" } },
    spec: { storageClassName: DRIVER, accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
  })
  await admin.create("/api/v1/persistentvolumes", {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: "pv-shared-web-0", labels: { "listeners.stackable.tech/listener-namespace": "team", "listeners.stackable.tech/listener-name": "brokers" } },
    spec: {
      capacity: { storage: "1" },
      accessModes: ["ReadWriteMany"],
      persistentVolumeReclaimPolicy: "Delete",
      storageClassName: DRIVER,
      claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: "team", name: "shared-web-0" },
      csi: { driver: DRIVER, volumeHandle: "pv-shared-web-0", volumeAttributes: { "listeners.stackable.tech/listener-name": "brokers" } }
    }
  })
  const web0 = await admin.create("/api/v1/namespaces/team/pods", pod("team", "web-0", "node-a", "shared-web-0"))
  // node-a's token may not put a mount label on its own Pod: not the shared Listener's, not node-b's Listener's.
  const kafka0 = await admin.get(`${GROUP}/namespaces/team/listeners/data-kafka-0`)
  for (const [what, uid, name] of [["the shared Listener's", shared.metadata.uid!, "brokers"], ["node-b's per-volume Listener's", kafka0.metadata.uid!, "data-kafka-0"]] as const) {
    assert.match(await refused(`node-a setting ${what} mount label on its own Pod`, () =>
      nodeClients["node-a"]!.patch("/api/v1/namespaces/team/pods/web-0", { metadata: { labels: { [mountLabelKey(uid)]: name } } }, "merge", { fieldManager: CSI_NODE_MANAGER })),
      new RegExp(`ValidatingAdmissionPolicy 'listener-operator-node-writes' .*denied request: the node plugin of node node-a may change only the label listeners\\.stackable\\.tech/node-published of a Pod \\(the controller sets the mount labels listener\\.stackable\\.tech/mnt\\.\\*\\); it changed ${mountLabelKey(uid).replaceAll(".", "\\.")} of Pod team/web-0`, "u"))
  }
  sent.length = 0
  await mark("node-a", web0)
  await boundTo(`${GROUP}/namespaces/team/podlisteners/pod-${web0.metadata.uid}`, "node-a")
  const labelled = await admin.get("/api/v1/namespaces/team/pods/web-0")
  const mountLabels = Object.fromEntries(Object.entries(labelled.metadata.labels ?? {}).filter(([key]) => key.startsWith(MOUNT_PREFIX)))
  assert.deepEqual(mountLabels, { [mountLabelKey(shared.metadata.uid!)]: "brokers" }, "set before the PodListeners the publish waits for")
  await new Promise((resolve) => setTimeout(resolve, 500))
  assert.deepEqual([...sent].sort(), ["create PodListeners", "patch Pod"], "a shared volume: the PodListeners and the mount label")
})

test("a controller restart with everything bound writes nothing", async () => {
  await stopBinder()
  sent.length = 0
  binder = startBinder()
  // Its caches list, every marked Pod is reconciled once from them.
  await new Promise((resolve) => setTimeout(resolve, 3000))
  assert.deepEqual(sent, [], "no request at all: every read came from the caches, and every mount label is in place")
})
