/**
 * Volumes the upstream operator's node plugin published (plain directory trees, no record
 * of ours) are found where the kubelet keeps CSI volumes, recorded, and then reached by
 * live refresh like our own.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Layer, Logger, References } from "effect"
import { PublishedVolumesFiles } from "../../../../adapters/PublishedVolumesFiles.ts"
import { fingerprint } from "../../../../domain/listenerPlan/json.ts"
import { CSI_DRIVER_NAME, PV_LABEL_LISTENER_NAME, PV_LABEL_LISTENER_NAMESPACE, PVC_ANNOTATION_LISTENER_NAME } from "../../../../domain/constants.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { adoptPublishedTargets } from "../../../../effects/takeover/adoptNodeVolumes.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { decodePublishedRecord, PublishedVolumes } from "../../../../effects/node/PublishedVolumes.ts"
import { refreshPublishedVolumes } from "../../../../effects/node/addressRefresh.ts"
import { TargetLocks } from "../../../../effects/node/TargetLocks.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
import { createListener, createPod, createVolume, NAMESPACE, seedCluster, setListenerStatus } from "../shared/volumeFixtures.ts"
import { runInCluster, snapshotTree } from "../shared/volumeTestLayer.ts"

const PODS = "/var/lib/kubelet/pods"

/** A tree as the upstream node plugin writes it: plain directories and files, a relative default-address link. */
const writeUpstreamTree = (target: string, address: string, ports: Record<string, number>) =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.mkdir(`${target}/addresses/${address}/ports`, { recursive: true })
    yield* fs.writeFile(`${target}/addresses/${address}/address`, address)
    for (const [name, port] of Object.entries(ports)) yield* fs.writeFile(`${target}/addresses/${address}/ports/${name}`, String(port))
    yield* fs.symlink(`addresses/${address}`, `${target}/default-address`)
  })

/** The kubelet's bookkeeping for a CSI volume of a Pod. */
const writeVolData = (podUid: string, volume: string, driverName: string, volumeHandle: string) =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const dir = `${PODS}/${podUid}/volumes/kubernetes.io~csi/${volume}`
    yield* fs.mkdir(dir, { recursive: true })
    yield* fs.writeFile(`${dir}/vol_data.json`, JSON.stringify({ driverName, volumeHandle, specVolID: volume, volumeLifecycleMode: "Persistent" }))
    return `${dir}/mount`
  })

const upstreamPublished = Effect.gen(function*() {
  const api = yield* KubeApi
  yield* seedCluster
  yield* createListener("shared", { className: "lb", ports: [{ name: "http", port: 443 }] })
  yield* setListenerStatus("shared", { ingressAddresses: [{ address: "192.0.2.10", addressType: "IP", ports: { http: 443 } }] })
  const { pv } = yield* createVolume({ pvcName: "data", annotations: { [PVC_ANNOTATION_LISTENER_NAME]: "shared" }, volumeId: "pvc-1" })
  yield* api.patch(Kinds.PersistentVolume, { name: pv.metadata.name! }, {
    metadata: { labels: { [PV_LABEL_LISTENER_NAMESPACE]: NAMESPACE, [PV_LABEL_LISTENER_NAME]: "shared" } }
  }, { type: "merge" })
  const pod = yield* createPod({ name: "web-0", nodeName: "node-1", volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "data" } }] })
  // What upstream's publish recorded: PodListeners pod-<uid>, owned by the Pod.
  yield* api.create(Kinds.PodListeners, {
    apiVersion: "listeners.stackable.tech/v1alpha1",
    kind: "PodListeners",
    metadata: { name: `pod-${pod.metadata.uid}`, namespace: NAMESPACE, ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "web-0", uid: pod.metadata.uid! }] },
    spec: { listeners: { listener: { scope: "Cluster", ingressAddresses: [{ address: "192.0.2.10", addressType: "IP", ports: { http: 443 } }] } } }
  })
  const target = yield* writeVolData(pod.metadata.uid!, "pvc-1", CSI_DRIVER_NAME, "pvc-1")
  yield* writeUpstreamTree(target, "192.0.2.10", { http: 443 })
  // Another driver's volume of the same Pod is none of ours.
  const other = yield* writeVolData(pod.metadata.uid!, "pvc-2", "secrets.stackable.tech", "pvc-2")
  yield* (yield* VolumeFs).mkdir(other, { recursive: true })
  return { target, pod }
})

const run = <A, E>(effect: Effect.Effect<A, E, KubeApi | VolumeFs | PublishedVolumes | TargetLocks | import("../../../../effects/shared/EventRecorder.ts").EventRecorder>) =>
  runInCluster(effect.pipe(Effect.provide(Layer.merge(PublishedVolumes.layerMemory, TargetLocks.layer))) as Effect.Effect<A, E, KubeApi | VolumeFs | import("../../../../effects/shared/EventRecorder.ts").EventRecorder>)

test("an upstream-published volume is recorded with its Pod, its frozen context and the addresses its tree holds; nothing on disk changes", () =>
  run(Effect.gen(function*() {
    const { target, pod } = yield* upstreamPublished
    const before = yield* snapshotTree(target)
    assert.equal(yield* adoptPublishedTargets(PODS, CSI_DRIVER_NAME, "node-1"), 1)
    const records = yield* (yield* PublishedVolumes).all
    assert.equal(records.length, 1)
    const record = records[0]!
    assert.equal(record.request.targetPath, target)
    assert.equal(record.request.volumeId, "pvc-1")
    assert.deepEqual(record.request.pod, { namespace: NAMESPACE, name: "web-0", uid: pod.metadata.uid })
    assert.deepEqual(record.request.listener, { _tag: "ListenerName", listenerName: "shared" })
    assert.deepEqual(record.listener, { namespace: NAMESPACE, name: "shared" })
    assert.deepEqual(record.addresses, [{ address: "192.0.2.10", addressType: "IP", ports: { http: 443 } }])
    assert.deepEqual(yield* snapshotTree(target), before)
    // A second start finds nothing new.
    assert.equal(yield* adoptPublishedTargets(PODS, CSI_DRIVER_NAME, "node-1"), 0)
  })))

test("a later address change reaches the upstream-published volume in place", () =>
  run(Effect.gen(function*() {
    const { target } = yield* upstreamPublished
    yield* adoptPublishedTargets(PODS, CSI_DRIVER_NAME, "node-1")
    // Nothing changed: the refresh leaves the plain tree alone.
    assert.equal((yield* refreshPublishedVolumes("node-1")).republished, 0)
    yield* setListenerStatus("shared", { ingressAddresses: [{ address: "192.0.2.20", addressType: "IP", ports: { http: 443 } }] })
    assert.equal((yield* refreshPublishedVolumes("node-1")).republished, 1)
    const tree = yield* snapshotTree(target)
    assert.equal(tree["addresses/192.0.2.20/address"], "192.0.2.20")
    assert.equal(tree["addresses/192.0.2.20/ports/http"], "443")
    assert.equal(tree["addresses/192.0.2.10/address"], undefined)
  })))

test("a volume whose Pod is gone is left to the kubelet", () =>
  run(Effect.gen(function*() {
    const { pod } = yield* upstreamPublished
    const api = yield* KubeApi
    yield* api.delete(Kinds.Pod, { namespace: NAMESPACE, name: pod.metadata.name! })
    assert.equal(yield* adoptPublishedTargets(PODS, CSI_DRIVER_NAME, "node-1"), 0)
    assert.equal((yield* (yield* PublishedVolumes).all).length, 0)
  })))

test("a record file that is not a record is reported and removed, its volume recorded again from its tree, and a later address change re-publishes it", () =>
  runInCluster(Effect.gen(function*() {
    const { target } = yield* upstreamPublished
    const fs = yield* VolumeFs
    const state = "/plugin/published-volumes/node-1"
    const file = `${state}/${fingerprint(target)}.json`
    yield* fs.mkdir(state, { recursive: true })
    yield* fs.writeFile(file, `{"request":{"volumeId":"pvc-1","targetPath":"${target}"`) // cut off mid-write
    const logged: Array<string> = []
    const capture = Logger.make(({ message }) => void logged.push(String(message)))
    yield* Effect.gen(function*() {
      const registry = yield* PublishedVolumes
      assert.deepEqual(yield* registry.all, [], "the broken record is not loaded")
      assert.equal(yield* adoptPublishedTargets(PODS, CSI_DRIVER_NAME, "node-1"), 1)
      assert.equal((yield* registry.get(target))?.request.volumeId, "pvc-1")
      yield* setListenerStatus("shared", { ingressAddresses: [{ address: "192.0.2.20", addressType: "IP", ports: { http: 443 } }] })
      assert.equal((yield* refreshPublishedVolumes("node-1")).republished, 1)
      assert.equal((yield* snapshotTree(target))["addresses/192.0.2.20/address"], "192.0.2.20")
    }).pipe(
      Effect.provide(Layer.merge(PublishedVolumesFiles.layer(state), TargetLocks.layer)),
      Effect.provideService(References.CurrentLoggers, new Set([capture]))
    )
    assert.ok(logged.some((line) => line.includes(`${file} is not a published-volume record, removed`)), logged.join("\n"))
    const rewritten = yield* decodePublishedRecord(yield* fs.readFile(file))
    assert.equal(rewritten.request.targetPath, target, "the file holds the volume's record again")
  })))
