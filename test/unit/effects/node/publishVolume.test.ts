import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Option } from "effect"
import { BOUND_NODE_LABEL, LISTENER_API_VERSION, mountLabelKey, NODE_PUBLISHED_LABEL, VOLUME_BINDER_FIELD_MANAGER } from "../../../../domain/constants.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { NodeView, uncachedNodeView } from "../../../../effects/node/NodeView.ts"
import type { NodeViewShape } from "../../../../effects/node/NodeView.ts"
import { publishVolume } from "../../../../effects/node/publishVolume.ts"
import type { PublishVolumeRequest } from "../../../../effects/node/publishVolume.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
import { volumeErrorCodes } from "../../../../effects/shared/volumeErrors.ts"
import {
  CLASS,
  createListener,
  createPod,
  createVolume,
  NAMESPACE,
  podContext,
  seedCluster,
  setListenerStatus
} from "../shared/volumeFixtures.ts"
import { runInCluster, snapshotTree } from "../shared/volumeTestLayer.ts"

const ROOT = "/var/lib/kubelet/pods/p1/volumes/kubernetes.io~csi"
const TARGET = `${ROOT}/pvc-1/mount`

const classVolume = (overrides: Partial<PublishVolumeRequest> = {}): PublishVolumeRequest => ({
  volumeId: "pvc-1",
  targetPath: TARGET,
  pod: { namespace: NAMESPACE, name: "web-0" },
  listener: { _tag: "ListenerClass", className: CLASS.pinned },
  volumeContext: { ...podContext("web-0"), "listeners.stackable.tech/listener-class": CLASS.pinned },
  ...overrides
})

/** The StatefulSet-like case: PVC `data-web-0` (listener-class pinned NodePort), Pod web-0 on node-1. */
const seedClassVolume = Effect.gen(function*() {
  yield* seedCluster
  const fs = yield* VolumeFs
  yield* fs.mkdir(`${ROOT}/pvc-1`, { recursive: true })
  const { pv, pvc } = yield* createVolume({
    pvcName: "data-web-0",
    volumeId: "pvc-1",
    annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned },
    pvcLabels: { app: "web", tier: "front" }
  })
  const pod = yield* createPod({
    name: "web-0",
    nodeName: "node-1",
    labels: { app: "web", "listener.stackable.tech/mnt.other": "other" },
    volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data-web-0" } }]
  })
  return { pv, pvc, pod }
})

const nodePortsReady = setListenerStatus("data-web-0", { nodePorts: { http: 30080, "port-9090": 30090 } })

test("listener-class volume: the Listener, PV and Pod labels are in place before addresses exist (UNAVAILABLE)", () =>
  runInCluster(Effect.gen(function*() {
    const { pv, pod } = yield* seedClassVolume
    const api = yield* KubeApi
    const error = yield* Effect.flip(publishVolume(classVolume()))
    assert.equal(error._tag, "ListenerAddressesNotReady")
    assert.equal(volumeErrorCodes[error._tag], "UNAVAILABLE")
    assert.match(error.message, /default\/data-web-0 has no addresses yet: status.nodePorts is empty/)

    const listener = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "data-web-0" })
    assert.equal(listener.apiVersion, LISTENER_API_VERSION)
    // The claim's labels, the node's published-on label and the binding: the controller's volume binder made it.
    assert.deepEqual(listener.metadata.labels, { app: "web", tier: "front", "listeners.stackable.tech/on.node-1": "true", [BOUND_NODE_LABEL]: "node-1" })
    assert.deepEqual(
      listener.metadata.ownerReferences?.map(({ apiVersion, kind, name, uid, controller }) => ({ apiVersion, kind, name, uid, controller })),
      [{ apiVersion: "v1", kind: "PersistentVolume", name: "pvc-1", uid: pv.metadata.uid, controller: undefined }]
    )
    const spec = listener["spec"] as Record<string, unknown>
    assert.equal(spec["className"], CLASS.pinned)
    assert.equal(spec["publishNotReadyAddresses"], true)
    // Container ports only (not the init container's), unnamed ones as port-<n>, protocol copied.
    assert.deepEqual(
      (spec["ports"] as Array<Record<string, unknown>>).map(({ name, port, protocol }) => ({ name, port, protocol })),
      [{ name: "http", port: 8080, protocol: "TCP" }, { name: "port-9090", port: 9090, protocol: "UDP" }]
    )
    assert.deepEqual(listener.metadata.managedFields?.map((entry) => entry.manager), [VOLUME_BINDER_FIELD_MANAGER], "the node plugin never writes it")

    const labelledPv = yield* api.get(Kinds.PersistentVolume, { name: "pvc-1" })
    assert.deepEqual(labelledPv.metadata.labels, {
      keep: "me",
      "listeners.stackable.tech/listener-namespace": NAMESPACE,
      "listeners.stackable.tech/listener-name": "data-web-0"
    })
    const labelledPod = yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name: "web-0" })
    assert.deepEqual(labelledPod.metadata.labels, {
      ...pod.metadata.labels,
      [NODE_PUBLISHED_LABEL]: "node-1",
      [mountLabelKey(listener.metadata.uid!)]: "data-web-0"
    })
    const fs = yield* VolumeFs
    assert.equal(yield* fs.entryType(TARGET), undefined, "nothing is written before addresses exist")
  })))

test("NodePort volume: the Pod's node address with the node ports, PodListeners, and the file tree", () =>
  runInCluster(Effect.gen(function*() {
    const { pod } = yield* seedClassVolume
    yield* Effect.flip(publishVolume(classVolume()))
    yield* nodePortsReady
    const published = yield* publishVolume(classVolume())
    assert.equal(published.scope, "Node")
    assert.equal(published.podVolumeName, "data")
    assert.equal(published.tree, "created")
    const expectedAddresses = [{ address: "10.0.0.1", addressType: "IP", ports: { http: 30080, "port-9090": 30090 } }]
    assert.deepEqual(published.addresses, expectedAddresses)

    assert.deepEqual(yield* snapshotTree(TARGET), {
      "addresses/": "dir",
      "addresses/10.0.0.1/": "dir",
      "addresses/10.0.0.1/address": "10.0.0.1",
      "addresses/10.0.0.1/ports/": "dir",
      "addresses/10.0.0.1/ports/http": "30080",
      "addresses/10.0.0.1/ports/port-9090": "30090",
      "default-address": "-> addresses/10.0.0.1"
    })
    const fs = yield* VolumeFs
    assert.deepEqual([...(yield* fs.readDir(`${ROOT}/pvc-1`))].sort(), ["mount"], "no staging leftovers next to the target")

    const api = yield* KubeApi
    const podListeners = yield* api.get(Kinds.PodListeners, { namespace: NAMESPACE, name: `pod-${pod.metadata.uid}` })
    assert.deepEqual(podListeners["spec"], { listeners: { data: { scope: "Node", ingressAddresses: expectedAddresses } } })
    assert.deepEqual(
      podListeners.metadata.ownerReferences?.map(({ kind, name, uid }) => ({ kind, name, uid })),
      [{ kind: "Pod", name: "web-0", uid: pod.metadata.uid }]
    )
  })))

test("publishing again converges: no API write, tree unchanged; a lost or stale tree is rewritten", () =>
  runInCluster(Effect.gen(function*() {
    const { pod } = yield* seedClassVolume
    yield* Effect.flip(publishVolume(classVolume()))
    yield* nodePortsReady
    yield* publishVolume(classVolume())
    const api = yield* KubeApi
    const versions = Effect.gen(function*() {
      return [
        (yield* api.get(Kinds.PersistentVolume, { name: "pvc-1" })).metadata.resourceVersion,
        (yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name: "web-0" })).metadata.resourceVersion,
        (yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "data-web-0" })).metadata.resourceVersion,
        (yield* api.get(Kinds.PodListeners, { namespace: NAMESPACE, name: `pod-${pod.metadata.uid}` })).metadata.resourceVersion
      ]
    })
    const before = yield* versions
    const tree = yield* snapshotTree(TARGET)
    const cluster = yield* KubeApiMemory
    cluster.requests.reset()
    const again = yield* publishVolume(classVolume())
    assert.equal(again.tree, "unchanged")
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.entries()))
    assert.deepEqual(yield* versions, before)
    assert.deepEqual(yield* snapshotTree(TARGET), tree)

    // Node restart: the tmpfs-backed target is gone; the kubelet publishes again.
    const fs = yield* VolumeFs
    yield* fs.removeTree(TARGET)
    assert.equal((yield* publishVolume(classVolume())).tree, "created")
    assert.deepEqual(yield* snapshotTree(TARGET), tree)

    // A tree left over with other contents (ports changed meanwhile) is replaced whole.
    yield* fs.writeFile(`${TARGET}/addresses/10.0.0.1/ports/http`, "1")
    yield* fs.mkdir(`${TARGET}/addresses/10.9.9.9`)
    assert.equal((yield* publishVolume(classVolume())).tree, "replaced")
    assert.deepEqual(yield* snapshotTree(TARGET), tree)
    assert.deepEqual([...(yield* fs.readDir(`${ROOT}/pvc-1`))].sort(), ["mount"])
  })))

test("leftovers of an interrupted publish are cleaned up and the tree converges", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    yield* Effect.flip(publishVolume(classVolume()))
    yield* nodePortsReady
    const fs = yield* VolumeFs
    // A crash between "old tree aside" and "new tree in": half a staging tree and a retired tree.
    yield* fs.mkdir(`${ROOT}/pvc-1/.mount.publishing/addresses`, { recursive: true })
    yield* fs.mkdir(`${ROOT}/pvc-1/.mount.retired/addresses`, { recursive: true })
    const published = yield* publishVolume(classVolume())
    assert.equal(published.tree, "created")
    assert.equal((yield* snapshotTree(TARGET))["default-address"], "-> addresses/10.0.0.1")
    assert.deepEqual([...(yield* fs.readDir(`${ROOT}/pvc-1`))].sort(), ["mount"])
  })))

test("listener-name volume on a LoadBalancer Listener: UNAVAILABLE until the Listener has ingress addresses", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const fs = yield* VolumeFs
    yield* fs.mkdir(`${ROOT}/pvc-2`, { recursive: true })
    yield* createListener("shared", { className: CLASS.loadBalancer, ports: [{ name: "http", port: 8080 }] })
    yield* createVolume({
      pvcName: "shared-web-1",
      volumeId: "pvc-2",
      annotations: { "listeners.stackable.tech/listener-name": "shared" }
    })
    yield* createPod({ name: "web-1", nodeName: "node-2", volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "shared-web-1" } }] })
    const request: PublishVolumeRequest = {
      volumeId: "pvc-2",
      targetPath: `${ROOT}/pvc-2/mount`,
      pod: { namespace: NAMESPACE, name: "web-1" },
      listener: { _tag: "ListenerName", listenerName: "shared" },
      volumeContext: podContext("web-1")
    }
    const pending = yield* Effect.flip(publishVolume(request))
    assert.equal(pending._tag, "ListenerAddressesNotReady")
    assert.match(pending.message, /status.ingressAddresses is empty/)
    const api = yield* KubeApi
    const pv = yield* api.get(Kinds.PersistentVolume, { name: "pvc-2" })
    assert.equal(pv.metadata.labels?.["listeners.stackable.tech/listener-name"], "shared")

    yield* setListenerStatus("shared", {
      ingressAddresses: [
        { address: "lb.example.com", addressType: "Hostname", ports: { http: 443 } },
        { address: "192.0.2.7", addressType: "IP", ports: { http: 443 } }
      ]
    })
    const published = yield* publishVolume(request)
    assert.equal(published.scope, "Cluster")
    assert.deepEqual(yield* snapshotTree(`${ROOT}/pvc-2/mount`), {
      "addresses/": "dir",
      "addresses/lb.example.com/": "dir",
      "addresses/lb.example.com/address": "lb.example.com",
      "addresses/lb.example.com/ports/": "dir",
      "addresses/lb.example.com/ports/http": "443",
      "addresses/192.0.2.7/": "dir",
      "addresses/192.0.2.7/address": "192.0.2.7",
      "addresses/192.0.2.7/ports/": "dir",
      "addresses/192.0.2.7/ports/http": "443",
      "default-address": "-> addresses/lb.example.com"
    })
    // No per-volume Listener is created for a listener-name volume.
    const listeners = yield* api.list(Kinds.Listener, { namespace: NAMESPACE })
    assert.deepEqual(listeners.items.map((item) => item.metadata.name), ["shared"])
  })))

for (const hostile of ["../../x", "a/b"]) {
  test(`hostile load-balancer address ${JSON.stringify(hostile)}: refused, nothing written`, () =>
    runInCluster(Effect.gen(function*() {
      yield* seedCluster
      const fs = yield* VolumeFs
      yield* fs.mkdir(`${ROOT}/pvc-3`, { recursive: true })
      yield* createListener("evil", { className: CLASS.loadBalancer, ports: [{ name: "http", port: 80 }] })
      yield* setListenerStatus("evil", { ingressAddresses: [{ address: hostile, addressType: "Hostname", ports: { http: 80 } }] })
      yield* createVolume({ pvcName: "evil-0", volumeId: "pvc-3", annotations: { "listeners.stackable.tech/listener-name": "evil" } })
      const pod = yield* createPod({ name: "evil-0", nodeName: "node-1", volumes: [{ name: "l", persistentVolumeClaim: { claimName: "evil-0" } }] })
      const error = yield* Effect.flip(publishVolume({
        volumeId: "pvc-3",
        targetPath: `${ROOT}/pvc-3/mount`,
        pod: { namespace: NAMESPACE, name: "evil-0" },
        listener: { _tag: "ListenerName", listenerName: "evil" },
        volumeContext: podContext("evil-0")
      }))
      assert.equal(error._tag, "VolumeAddressRefused")
      assert.equal(volumeErrorCodes[error._tag], "FAILED_PRECONDITION")
      assert.ok(error.message.includes(JSON.stringify(hostile)), error.message)
      assert.match(error.message, hostile.includes("/") ? /contains '\/'/ : /neither an IP address nor a DNS name/)
      assert.deepEqual([...(yield* fs.readDir(`${ROOT}/pvc-3`))], [], "nothing next to the target")
      assert.deepEqual([...(yield* fs.readDir(ROOT))].sort(), ["pvc-3"], "nothing outside it")
      assert.equal(yield* fs.entryType("/var/lib/kubelet/pods/p1/volumes/x"), undefined)
      assert.equal(yield* fs.entryType("/var/lib/kubelet/pods/p1/x"), undefined)
      const api = yield* KubeApi
      const podListeners = yield* Effect.flip(api.get(Kinds.PodListeners, { namespace: NAMESPACE, name: `pod-${pod.metadata.uid}` }))
      assert.equal(podListeners.reason, "NotFound", "the refused addresses are not recorded either")
    })))
}

test("PodListeners: a second volume of the same Pod is merged in, the first one kept", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const fs = yield* VolumeFs
    yield* createListener("a", { className: CLASS.clusterIp, ports: [{ name: "http", port: 80 }] })
    yield* createListener("b", { className: CLASS.clusterIp, ports: [{ name: "http", port: 80 }] })
    yield* setListenerStatus("a", { ingressAddresses: [{ address: "a.default.svc.cluster.local", addressType: "Hostname", ports: { http: 80 } }] })
    yield* setListenerStatus("b", { ingressAddresses: [{ address: "10.96.0.2", addressType: "IP", ports: { http: 80 } }] })
    yield* createVolume({ pvcName: "pa", volumeId: "pvc-a", annotations: { "listeners.stackable.tech/listener-name": "a" } })
    yield* createVolume({ pvcName: "pb", volumeId: "pvc-b", annotations: { "listeners.stackable.tech/listener-name": "b" } })
    const pod = yield* createPod({
      name: "two",
      nodeName: "node-1",
      volumes: [{ name: "va", persistentVolumeClaim: { claimName: "pa" } }, { name: "vb", persistentVolumeClaim: { claimName: "pb" } }]
    })
    for (const [id, listener] of [["pvc-a", "a"], ["pvc-b", "b"]] as const) {
      yield* fs.mkdir(`${ROOT}/${id}`, { recursive: true })
      yield* publishVolume({
        volumeId: id,
        targetPath: `${ROOT}/${id}/mount`,
        pod: { namespace: NAMESPACE, name: "two" },
        listener: { _tag: "ListenerName", listenerName: listener },
        volumeContext: podContext("two")
      })
    }
    const api = yield* KubeApi
    const podListeners = yield* api.get(Kinds.PodListeners, { namespace: NAMESPACE, name: `pod-${pod.metadata.uid}` })
    assert.deepEqual(podListeners["spec"], {
      listeners: {
        va: { scope: "Cluster", ingressAddresses: [{ address: "a.default.svc.cluster.local", addressType: "Hostname", ports: { http: 80 } }] },
        vb: { scope: "Cluster", ingressAddresses: [{ address: "10.96.0.2", addressType: "IP", ports: { http: 80 } }] }
      }
    })
    // Both mount labels are on the Pod: set by the controller's volume binder (running beside
    // the test), not the node plugin — the second within one reconcile of its PV's labels.
    let mountLabels = 0
    for (let i = 0; i < 200 && mountLabels < 2; i++) {
      const labels = (yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name: "two" })).metadata.labels ?? {}
      mountLabels = Object.keys(labels).filter((key) => key.startsWith("listener.stackable.tech/mnt.")).length
      if (mountLabels < 2) yield* Effect.sleep("10 millis")
    }
    assert.equal(mountLabels, 2)
  })))

test("generic ephemeral volume: the Pod volume is found by <pod>-<volume>", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const fs = yield* VolumeFs
    yield* fs.mkdir(`${ROOT}/pvc-e`, { recursive: true })
    yield* createVolume({ pvcName: "eph-listener", volumeId: "pvc-e", annotations: { "listeners.stackable.tech/listener-class": CLASS.nodePort } })
    yield* createPod({
      name: "eph",
      nodeName: "node-2",
      volumes: [{ name: "listener", ephemeral: { volumeClaimTemplate: { spec: { storageClassName: "listeners.stackable.tech" } } } }]
    })
    const request: PublishVolumeRequest = {
      volumeId: "pvc-e",
      targetPath: `${ROOT}/pvc-e/mount`,
      pod: { namespace: NAMESPACE, name: "eph" },
      listener: { _tag: "ListenerClass", className: CLASS.nodePort },
      volumeContext: podContext("eph")
    }
    yield* Effect.flip(publishVolume(request))
    yield* setListenerStatus("eph-listener", { nodePorts: { http: 31000, "port-9090": 31001 } })
    const published = yield* publishVolume(request)
    assert.equal(published.podVolumeName, "listener")
    assert.deepEqual(published.addresses, [{ address: "10.0.0.2", addressType: "IP", ports: { http: 31000, "port-9090": 31001 } }])
  })))

// ---- failures: each step's error, with its tag and gRPC code ------------------------------

const expectFailure = (request: PublishVolumeRequest, tag: string, code: string, message: RegExp) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(publishVolume(request))
    assert.equal(error._tag, tag, error.message)
    assert.equal(volumeErrorCodes[error._tag], code)
    assert.match(error.message, message)
    return error
  })

test("inline CSI volume (csi.storage.k8s.io/ephemeral=true) → InlineVolumeUnsupported", () =>
  runInCluster(expectFailure(
    classVolume({ volumeContext: { ...podContext("web-0"), "csi.storage.k8s.io/ephemeral": "true" } }),
    "InlineVolumeUnsupported",
    "FAILED_PRECONDITION",
    /inline CSI volume/
  )))

test("no PV for the volume id yet → VolumeApiStepFailed (load PersistentVolume, NotFound)", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const error = yield* expectFailure(classVolume({ volumeId: "pvc-unknown" }), "VolumeApiStepFailed", "UNAVAILABLE", /load PersistentVolume pvc-unknown: NotFound/)
    assert.equal(error._tag === "VolumeApiStepFailed" && error.cause.reason, "NotFound")
  })))

test("a PV found by volume handle when its name differs from the volume id", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const api = yield* KubeApi
    yield* createVolume({ pvcName: "data-web-0", volumeId: "pvc-1", annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned } })
    const pv = yield* api.get(Kinds.PersistentVolume, { name: "pvc-1" })
    const { resourceVersion: _, uid: __, creationTimestamp: ___, managedFields: ____, ...metadata } = pv.metadata
    yield* api.create(Kinds.PersistentVolume, {
      ...pv,
      metadata: { ...metadata, name: "handmade" },
      spec: { ...(pv["spec"] as object), csi: { driver: "listeners.stackable.tech", volumeHandle: "handle-7" } }
    })
    // The Pod is missing, so the program stops after loading the PV and the PVC: the PV was found.
    yield* expectFailure(classVolume({ volumeId: "handle-7" }), "VolumeApiStepFailed", "UNAVAILABLE", /load Pod default\/web-0: NotFound/)
    // A handle that cannot be a name (the API server answers 400 to GET …/..) is only matched in the list.
    yield* api.create(Kinds.PersistentVolume, {
      ...pv,
      metadata: { ...metadata, name: "handmade-2" },
      spec: { ...(pv["spec"] as object), csi: { driver: "listeners.stackable.tech", volumeHandle: ".." } }
    })
    yield* expectFailure(classVolume({ volumeId: ".." }), "VolumeApiStepFailed", "UNAVAILABLE", /load Pod default\/web-0: NotFound/)
    yield* expectFailure(classVolume({ volumeId: "no/such/../handle" }), "VolumeApiStepFailed", "UNAVAILABLE", /no PersistentVolume of driver listeners.stackable.tech has volume handle/)
  })))

test("PV without claimRef → VolumeNotBound", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    yield* createVolume({ pvcName: "data-web-0", volumeId: "pvc-1", unbound: true, annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned } })
    yield* expectFailure(classVolume(), "VolumeNotBound", "FAILED_PRECONDITION", /has no spec.claimRef/)
  })))

test("Pod missing → VolumeApiStepFailed (load Pod)", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    yield* createVolume({ pvcName: "data-web-0", volumeId: "pvc-1", annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned } })
    yield* expectFailure(classVolume(), "VolumeApiStepFailed", "UNAVAILABLE", /load Pod default\/web-0: NotFound/)
  })))

test("ListenerClass missing → VolumeApiStepFailed (load ListenerClass)", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    yield* createVolume({ pvcName: "data-web-0", volumeId: "pvc-1", annotations: { "listeners.stackable.tech/listener-class": "nope" } })
    yield* createPod({ name: "web-0", nodeName: "node-1", volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data-web-0" } }] })
    yield* expectFailure(
      classVolume({ listener: { _tag: "ListenerClass", className: "nope" } }),
      "VolumeApiStepFailed",
      "UNAVAILABLE",
      /load ListenerClass nope: NotFound/
    )
  })))

test("listener-name Listener missing → VolumeApiStepFailed (load Listener); without className → ListenerHasNoClass", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    yield* expectFailure(
      classVolume({ listener: { _tag: "ListenerName", listenerName: "ghost" } }),
      "VolumeApiStepFailed",
      "UNAVAILABLE",
      /load Listener default\/ghost: NotFound/
    )
    yield* createListener("classless", { ports: [] })
    yield* expectFailure(
      classVolume({ listener: { _tag: "ListenerName", listenerName: "classless" } }),
      "ListenerHasNoClass",
      "FAILED_PRECONDITION",
      /Listener default\/classless has no spec.className/
    )
  })))

test("a Listener name over 63 characters (a label value) → VolumeObjectInvalid naming it, before any write", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    const long = `web-${"x".repeat(60)}`
    const cluster = yield* KubeApiMemory
    cluster.requests.reset()
    yield* expectFailure(
      classVolume({ listener: { _tag: "ListenerName", listenerName: long } }),
      "VolumeObjectInvalid",
      "FAILED_PRECONDITION",
      new RegExp(`Listener default/${long} is not usable: its name is 64 characters long; .* at most 63`)
    )
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.entries()))
  })))

test("NodePort class with a hostnameTemplate: the Pod sees its Listener's templated name with its node ports", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    const api = yield* KubeApi
    yield* api.patch(Kinds.ListenerClass, { name: CLASS.pinned }, { spec: { hostnameTemplate: "broker-{ordinal}.{namespace}.example.com" } }, { type: "merge" })
    yield* Effect.flip(publishVolume(classVolume()))
    yield* nodePortsReady
    const published = yield* publishVolume(classVolume())
    assert.deepEqual(published.addresses, [{ address: "broker-0.default.example.com", addressType: "Hostname", ports: { http: 30080, "port-9090": 30090 } }])
    assert.equal(yield* (yield* VolumeFs).readFile(`${TARGET}/default-address/address`), "broker-0.default.example.com")
    // A template that cannot name this Listener waits (the controller reports why on the Listener).
    yield* api.patch(Kinds.ListenerClass, { name: CLASS.pinned }, { spec: { hostnameTemplate: `${"{listener}".repeat(7)}.example.com` } }, { type: "merge" })
    yield* expectFailure(classVolume(), "ListenerAddressesNotReady", "UNAVAILABLE", /which is not a DNS name/)
  })))

test("NodePort volume of an unscheduled Pod → PodNotScheduled", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    yield* createVolume({ pvcName: "data-web-0", volumeId: "pvc-1", annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned } })
    yield* createPod({ name: "web-0", volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data-web-0" } }] })
    yield* expectFailure(classVolume(), "PodNotScheduled", "UNAVAILABLE", /Pod default\/web-0 has no spec.nodeName/)
  })))

test("Pod without a volume for the PVC → PodVolumeNotFound", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const fs = yield* VolumeFs
    yield* fs.mkdir(`${ROOT}/pvc-1`, { recursive: true })
    yield* createVolume({ pvcName: "data-web-0", volumeId: "pvc-1", annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned } })
    yield* createPod({ name: "web-0", nodeName: "node-1", volumes: [{ name: "other", persistentVolumeClaim: { claimName: "else" } }] })
    yield* expectFailure(classVolume(), "PodVolumeNotFound", "FAILED_PRECONDITION", /no persistentVolumeClaim or ephemeral volume for PVC data-web-0/)
    assert.equal(yield* fs.entryType(TARGET), undefined)
  })))

test("the target's parent is missing → TargetParentMissing (FAILED_PRECONDITION: the CO creates it)", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    yield* createVolume({ pvcName: "data-web-0", volumeId: "pvc-1", annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned } })
    yield* createPod({ name: "web-0", nodeName: "node-1", volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data-web-0" } }] })
    yield* Effect.flip(publishVolume(classVolume()))
    yield* nodePortsReady
    yield* expectFailure(classVolume({ targetPath: "/nowhere/at/all/mount" }), "TargetParentMissing", "FAILED_PRECONDITION", /^target_path: the directory "\/nowhere\/at\/all" that holds/)
  })))

test("a node without a usable address → ListenerAddressesNotReady naming the node", () =>
  runInCluster(Effect.gen(function*() {
    const { pod: _ } = yield* seedClassVolume
    const api = yield* KubeApi
    const node = yield* api.get(Kinds.Node, { name: "node-1" })
    yield* api.updateStatus(Kinds.Node, { ...node, status: { addresses: [{ type: "Hostname", address: "bad/name" }] } })
    yield* Effect.flip(publishVolume(classVolume()))
    yield* nodePortsReady
    yield* expectFailure(classVolume(), "ListenerAddressesNotReady", "UNAVAILABLE", /node node-1 has no address that is an IP address or DNS name \("bad\/name"\)/)
  })))

test("the kubelet mounts for a Pod uid that is no longer the live Pod's → PodReplaced, nothing written", () =>
  runInCluster(Effect.gen(function*() {
    const { pod } = yield* seedClassVolume
    const error = yield* expectFailure(
      classVolume({ pod: { namespace: NAMESPACE, name: "web-0", uid: "0000-old" } }),
      "PodReplaced",
      "FAILED_PRECONDITION",
      new RegExp(`Pod default/web-0 is uid ${pod.metadata.uid} now, not the uid 0000-old being mounted`)
    )
    assert.equal(error._tag, "PodReplaced")
    const api = yield* KubeApi
    const listeners = yield* api.list(Kinds.Listener, { namespace: NAMESPACE })
    assert.deepEqual(listeners.items, [], "no Listener is applied for a replaced Pod")
    // The live uid is accepted.
    const pending = yield* Effect.flip(publishVolume(classVolume({ pod: { namespace: NAMESPACE, name: "web-0", uid: pod.metadata.uid! } })))
    assert.equal(pending._tag, "ListenerAddressesNotReady")
  })))

test("a Pod being deleted gets nothing published → PodTerminating: an existing tree stays as it is, no new one is made", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    yield* Effect.flip(publishVolume(classVolume())) // creates the Listener; no node ports yet
    yield* nodePortsReady
    yield* publishVolume(classVolume())
    const before = yield* snapshotTree(TARGET)
    const api = yield* KubeApi
    // A graceful delete: the Pod keeps running (deletionTimestamp set) while its containers stop.
    yield* api.delete(Kinds.Pod, { namespace: NAMESPACE, name: "web-0" })
    yield* setListenerStatus("data-web-0", { nodePorts: { http: 31080, "port-9090": 31090 } })
    const cluster = yield* KubeApiMemory
    cluster.requests.reset()

    yield* expectFailure(classVolume(), "PodTerminating", "FAILED_PRECONDITION", /Pod default\/web-0 is being deleted \(deletionTimestamp /)
    assert.deepEqual(yield* snapshotTree(TARGET), before, "the running containers keep the tree they have")
    assert.equal(cluster.requests.writes(), 0, "no label, PodListeners or Event for a Pod on its way out")

    const fresh = `${ROOT}/pvc-1/second`
    yield* Effect.flip(publishVolume(classVolume({ targetPath: fresh })))
    const fs = yield* VolumeFs
    assert.equal(yield* fs.entryType(fresh), undefined, "no new target for a terminating Pod")
  })))

test("the per-volume Listener gets the claim's labels when it is made; publishing again writes nothing to it", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    yield* Effect.flip(publishVolume(classVolume()))
    const api = yield* KubeApi
    const made = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "data-web-0" })
    assert.equal(made.metadata.labels?.["tier"], "front")
    yield* api.patch(Kinds.PersistentVolumeClaim, { namespace: NAMESPACE, name: "data-web-0" }, { metadata: { labels: { tier: null, zone: "a" } } }, { type: "merge" })
    yield* Effect.flip(publishVolume(classVolume()))
    const listener = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "data-web-0" })
    assert.equal(listener.metadata.resourceVersion, made.metadata.resourceVersion, "a bound Listener is not rewritten")
  })))

// ---- explainable waiting: Events on the Pod and the PVC ---------------------------------

interface EventView {
  readonly kind: string
  readonly name: string
  readonly reason: string
  readonly note: string
  readonly count: number
}

const eventsOf = Effect.gen(function*() {
  const cluster = yield* KubeApiMemory
  return cluster.objects(Kinds.Event, NAMESPACE).map((event): EventView => {
    const regarding = event["regarding"] as { kind: string; name: string }
    return {
      kind: regarding.kind,
      name: regarding.name,
      reason: String(event["reason"]),
      note: String(event["note"]),
      count: (event["series"] as { count?: number } | undefined)?.count ?? 1
    }
  })
})

test("a publish waiting for addresses is explained on the Pod and the PVC: one Event each, its series counting the retries", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    for (let retry = 0; retry < 6; retry++) yield* Effect.flip(publishVolume(classVolume()))
    const events = yield* eventsOf
    assert.deepEqual(events.map((e) => `${e.kind}/${e.name} ${e.reason} x${e.count}`).sort(), [
      "PersistentVolumeClaim/data-web-0 AwaitingNodePorts x6",
      "Pod/web-0 AwaitingNodePorts x6"
    ])
    assert.match(events[0]!.note, /Listener default\/data-web-0 has no node ports yet; the volume is published once/)
    yield* nodePortsReady
    yield* publishVolume(classVolume())
    assert.equal((yield* eventsOf).length, 2, "a publish that succeeds records nothing")
  })))

test("each waiting reason names what is missing and what unblocks it; failures that are not waiting record nothing", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    const reasonsAfter = (request: PublishVolumeRequest) =>
      Effect.gen(function*() {
        const before = new Set((yield* eventsOf).map((e) => `${e.kind} ${e.reason} ${e.note}`))
        yield* Effect.flip(publishVolume(request))
        return (yield* eventsOf).filter((e) => !before.has(`${e.kind} ${e.reason} ${e.note}`))
      })
    const ghost = yield* reasonsAfter(classVolume({ listener: { _tag: "ListenerName", listenerName: "ghost" } }))
    assert.deepEqual(ghost.map((e) => `${e.kind} ${e.reason}`).sort(), ["PersistentVolumeClaim ListenerNotFound", "Pod ListenerNotFound"])
    assert.match(ghost[0]!.note, /Listener default\/ghost, named by the PVC's listeners.stackable.tech\/listener-name annotation, does not exist; create it/)

    yield* createVolume({ pvcName: "data-nope", volumeId: "pvc-nope", annotations: { "listeners.stackable.tech/listener-class": "nope" } })
    yield* createPod({ name: "web-nope", nodeName: "node-1", volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data-nope" } }] })
    const noClass = yield* reasonsAfter(classVolume({
      volumeId: "pvc-nope",
      pod: { namespace: NAMESPACE, name: "web-nope" },
      listener: { _tag: "ListenerClass", className: "nope" },
      volumeContext: { ...podContext("web-nope"), "listeners.stackable.tech/listener-class": "nope" }
    }))
    assert.deepEqual(noClass.map((e) => e.reason), ["ListenerClassNotFound", "ListenerClassNotFound"])
    assert.match(noClass[0]!.note, /ListenerClass nope does not exist; create it/)

    yield* createListener("classless", { ports: [] })
    const classless = yield* reasonsAfter(classVolume({ listener: { _tag: "ListenerName", listenerName: "classless" } }))
    assert.deepEqual(classless.map((e) => e.reason), ["ListenerHasNoClass", "ListenerHasNoClass"])

    const api = yield* KubeApi
    const node = yield* api.get(Kinds.Node, { name: "node-1" })
    yield* api.updateStatus(Kinds.Node, { ...node, status: { addresses: [] } })
    yield* nodePortsReady
    const noAddress = yield* reasonsAfter(classVolume())
    assert.deepEqual(noAddress.map((e) => e.reason), ["NodeAddressUnusable", "NodeAddressUnusable"])
    assert.match(noAddress[0]!.note, /node node-1 has no ExternalIP, InternalIP or Hostname address; give the Node an address of type ExternalIP, InternalIP or Hostname \(.*\), set the Node's listeners\.stackable\.tech\/node-address annotation/)
    // With the class's own address types, the note names those.
    const pinnedClass = yield* api.get(Kinds.ListenerClass, { name: CLASS.pinned })
    yield* api.update(Kinds.ListenerClass, { ...pinnedClass, spec: { ...(pinnedClass["spec"] as object), nodeAddressTypes: ["ExternalDNS"] } })
    yield* api.updateStatus(Kinds.Node, { ...(yield* api.get(Kinds.Node, { name: "node-1" })), status: { addresses: [{ type: "InternalIP", address: "10.0.0.1" }] } })
    const noTypedAddress = yield* reasonsAfter(classVolume())
    assert.deepEqual(noTypedAddress.map((e) => e.reason), ["NodeAddressUnusable", "NodeAddressUnusable"])
    assert.match(noTypedAddress[0]!.note, /node node-1 has no usable address of the class's nodeAddressTypes \(ExternalDNS\); give the Node an address of type ExternalDNS \(the spec\.nodeAddressTypes of ListenerClass nodeport-pinned, in this order\), set the Node's listeners\.stackable\.tech\/node-address annotation/)

    assert.match(noAddress[0]!.note, /give the Node an address of type ExternalIP, InternalIP or Hostname \(ListenerClass nodeport-pinned sets no spec.nodeAddressTypes/)

    const replaced = yield* reasonsAfter(classVolume({ pod: { namespace: NAMESPACE, name: "web-0", uid: "an-older-uid" } }))
    assert.deepEqual(replaced, [], "PodReplaced is no waiting condition")
  })))

test("NodeAddressUnusable names the class's own nodeAddressTypes, in its order, not the default types", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    const api = yield* KubeApi
    // node-1 offers InternalIP and Hostname; the class accepts only external addresses.
    yield* api.patch(Kinds.ListenerClass, { name: CLASS.pinned }, { spec: { nodeAddressTypes: ["ExternalDNS", "ExternalIP"] } }, { type: "merge" })
    yield* Effect.flip(publishVolume(classVolume()))
    yield* nodePortsReady
    const error = yield* Effect.flip(publishVolume(classVolume()))
    assert.equal(error._tag, "ListenerAddressesNotReady")
    const events = (yield* eventsOf).filter((e) => e.reason === "NodeAddressUnusable")
    assert.deepEqual(events.map((e) => e.kind).sort(), ["PersistentVolumeClaim", "Pod"])
    for (const event of events) {
      assert.match(event.note, /node node-1 has no usable address of the class's nodeAddressTypes \(ExternalDNS, ExternalIP\)/)
      assert.match(event.note, /give the Node an address of type ExternalDNS or ExternalIP \(the spec.nodeAddressTypes of ListenerClass nodeport-pinned, in this order\)/)
      assert.doesNotMatch(event.note, /InternalIP|Hostname/, "types the class does not accept are not suggested")
    }
  })))

/** A node role's view with warm caches: this node, the classes, Nodes and Listeners as stored (a new Listener: none yet). */
const warmNodeView = (cluster: KubeApiMemory["Service"]): NodeViewShape => ({
  ...uncachedNodeView,
  nodeName: "node-1",
  listener: (ref) => Effect.succeed(Option.fromUndefinedOr(cluster.objects(Kinds.Listener, ref.namespace).find((l) => l.metadata.name === ref.name))),
  listenerClass: (name) => Effect.succeed(Option.fromUndefinedOr(cluster.objects(Kinds.ListenerClass).find((c) => c.metadata.name === name))),
  node: (name) => Effect.succeed(Option.fromUndefinedOr(cluster.objects(Kinds.Node).find((n) => n.metadata.name === name))),
  listenersReady: Effect.succeed(true)
})

test("the Pod is read beside the PV and its PVC, not after them: a publish waits for two reads in a row, not three", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    const cluster = yield* KubeApiMemory
    const order: string[] = []
    // Every read takes a while, as over the network; the log says when each started and ended.
    const slowReads = KubeApi.overriding(cluster.api, {
      get: (kind, ref) =>
        Effect.gen(function*() {
          order.push(`start ${kind.kind}`)
          yield* Effect.sleep("20 millis")
          order.push(`end ${kind.kind}`)
          return yield* cluster.api.get(kind, ref)
        })
    })
    yield* Effect.flip(publishVolume(classVolume())).pipe(Effect.provideService(KubeApi, slowReads))
    const at = (entry: string) => order.indexOf(entry)
    assert.ok(at("start Pod") >= 0, order.join(", "))
    assert.ok(at("start Pod") < at("end PersistentVolume"), `the Pod's read starts with the PV's: ${order.join(", ")}`)
    assert.ok(at("start PersistentVolumeClaim") > at("end PersistentVolume"), `the PVC is read from the PV's claimRef: ${order.join(", ")}`)
  })))

test("a failing PV read is reported before a failing Pod read, whichever answers first", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    yield* createVolume({ pvcName: "data-web-0", volumeId: "pvc-1", unbound: true, annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned } })
    const cluster = yield* KubeApiMemory
    // The PV answers last; the Pod (missing) first.
    const slowPv = KubeApi.overriding(cluster.api, {
      get: (kind, ref) => Effect.andThen(Effect.sleep(kind.kind === "PersistentVolume" ? "30 millis" : "0 millis"), cluster.api.get(kind, ref))
    })
    const error = yield* Effect.flip(publishVolume(classVolume())).pipe(Effect.provideService(KubeApi, slowPv))
    assert.equal(error._tag, "VolumeNotBound", error.message)
  })))

test("a first-try publish of a new per-volume Listener sends 6 requests, its 3 writes in the spec's order: no create (the controller's binder makes the Listener and PodListeners), no read of the PodListeners a Pod new to the Listener cannot have", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    const cluster = yield* KubeApiMemory
    const sent: string[] = []
    const api = KubeApi.overriding(cluster.api, {
      get: (kind, ref) => Effect.andThen(Effect.sync(() => sent.push(`get ${kind.kind}`)), cluster.api.get(kind, ref)),
      apply: (kind, object, options) => Effect.andThen(Effect.sync(() => sent.push(`apply ${kind.kind}`)), cluster.api.apply(kind, object, options)),
      patch: (kind, ref, patch, options) => Effect.andThen(Effect.sync(() => sent.push(`patch ${kind.kind}`)), cluster.api.patch(kind, ref, patch, options)),
      create: (kind, object, options) => Effect.andThen(Effect.sync(() => sent.push(`create ${kind.kind}`)), cluster.api.create(kind, object, options))
    })
    // The controller answers at once: once the binder has made the Listener, its node ports.
    const controller = Effect.gen(function*() {
      for (;;) {
        const made = cluster.objects(Kinds.Listener, NAMESPACE).find((l) => l.metadata.name === "data-web-0")
        if (made !== undefined) return yield* cluster.api.updateStatus(Kinds.Listener, { ...made, status: { nodePorts: { http: 30080, "port-9090": 30090 } } })
        yield* Effect.sleep("2 millis")
      }
    })
    const answering = yield* Effect.forkChild(controller)
    const published = yield* publishVolume(classVolume()).pipe(
      Effect.provideService(KubeApi, api),
      Effect.provideService(NodeView, warmNodeView(cluster))
    )
    yield* Fiber.join(answering)
    assert.equal(published.tree, "created")
    assert.deepEqual(sent.slice(0, 3).sort(), ["get PersistentVolume", "get PersistentVolumeClaim", "get Pod"])
    // PV labels, the mark (the binder acts on it, and sets the mount label), the PodListeners entry.
    assert.deepEqual(sent.slice(3), ["patch PersistentVolume", "patch Pod", "patch PodListeners"])
    const pod = cluster.objects(Kinds.Pod, NAMESPACE).find((p) => p.metadata.name === "web-0")!
    assert.ok(Object.keys(pod.metadata.labels ?? {}).some((key) => key.startsWith("listener.stackable.tech/mnt.")), "the binder set the mount label")

    // Published again (the kubelet after a node restart): the Pod has its labels, so the
    // PodListeners entry is read and found right — no write at all.
    sent.length = 0
    yield* VolumeFs.pipe(Effect.flatMap((fs) => fs.removeTree(TARGET)))
    yield* publishVolume(classVolume()).pipe(Effect.provideService(KubeApi, api), Effect.provideService(NodeView, warmNodeView(cluster)))
    assert.deepEqual(sent.slice(3), ["get PodListeners"], sent.join(", "))
  })))

test("the node plugin waits for the binder, and fails UNAVAILABLE naming the binding when none comes", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedClassVolume
    const cluster = yield* KubeApiMemory
    // A Listener of the claim's name bound to another node (as after a move the binder has not seen yet).
    const pv = cluster.objects(Kinds.PersistentVolume).find((p) => p.metadata.name === "pvc-1")!
    yield* cluster.api.create(Kinds.Listener, {
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      metadata: { name: "data-web-0", namespace: NAMESPACE, labels: { [BOUND_NODE_LABEL]: "node-2" }, ownerReferences: [{ apiVersion: "v1", kind: "PersistentVolume", name: "pvc-1", uid: pv.metadata.uid! }] },
      spec: { className: CLASS.pinned, ports: [] }
    })
    // The binder re-binds it to the Pod's node; the publish gets past the wait (to the node ports).
    const error = yield* Effect.flip(publishVolume(classVolume()))
    assert.equal(error._tag, "ListenerAddressesNotReady", error.message)
    const listener = yield* cluster.api.get(Kinds.Listener, { namespace: NAMESPACE, name: "data-web-0" })
    assert.equal(listener.metadata.labels?.[BOUND_NODE_LABEL], "node-1")
  })))
