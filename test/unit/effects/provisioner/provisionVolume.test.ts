import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { deleteVolume, provisionVolume, pvcRefOf, volumeExists } from "../../../../effects/provisioner/provisionVolume.ts"
import type { ProvisionVolumeRequest } from "../../../../effects/provisioner/provisionVolume.ts"
import { volumeErrorCodes, VolumeParameterMissing } from "../../../../effects/shared/volumeErrors.ts"
import { CLASS, createListener, createVolume, NAMESPACE, seedCluster } from "../shared/volumeFixtures.ts"
import { runInCluster } from "../shared/volumeTestLayer.ts"

const HOST = "listeners.stackable.tech/hostname"
const node1 = { [HOST]: "node-1" }
const node2 = { [HOST]: "node-2" }

const request = (pvcName: string, overrides: Partial<ProvisionVolumeRequest> = {}): ProvisionVolumeRequest => ({
  name: "pvc-1234",
  pvc: { namespace: NAMESPACE, name: pvcName },
  requisiteTopologies: [node1, node2],
  preferredTopologies: [node2, node1],
  ...overrides
})

const withPvc = (pvcName: string, annotations: Record<string, string>) =>
  Effect.gen(function*() {
    yield* seedCluster
    const api = yield* KubeApi
    yield* api.create(Kinds.PersistentVolumeClaim, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: {
        name: pvcName,
        namespace: NAMESPACE,
        // Annotations the API machinery adds must not end up in the volume context.
        annotations: { ...annotations, "volume.kubernetes.io/selected-node": "node-2" }
      },
      spec: { storageClassName: "listeners.stackable.tech", accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1" } } }
    })
  })

test("pinned NodePort class → the first preferred topology (the scheduler's node); context = the listener annotation", () =>
  runInCluster(Effect.gen(function*() {
    yield* withPvc("data-web-0", { "listeners.stackable.tech/listener-class": CLASS.pinned })
    const volume = yield* provisionVolume(request("data-web-0"))
    assert.deepEqual(volume, {
      volumeId: "pvc-1234",
      capacityBytes: 0,
      volumeContext: { "listeners.stackable.tech/listener-class": CLASS.pinned },
      accessibleTopology: [node2]
    })
    // Idempotent: the same request gives the same volume.
    assert.deepEqual(yield* provisionVolume(request("data-web-0")), volume)
    // Without preferred topologies (csi-sanity style), the first requisite one.
    assert.deepEqual((yield* provisionVolume(request("data-web-0", { preferredTopologies: [] }))).accessibleTopology, [node1])
  })))

test("pinned class without any topology in the request → PinningTopologyMissing (INVALID_ARGUMENT)", () =>
  runInCluster(Effect.gen(function*() {
    yield* withPvc("data-web-0", { "listeners.stackable.tech/listener-class": CLASS.pinned })
    const error = yield* Effect.flip(provisionVolume(request("data-web-0", { preferredTopologies: [], requisiteTopologies: [] })))
    assert.equal(error._tag, "PinningTopologyMissing")
    assert.equal(volumeErrorCodes[error._tag], "INVALID_ARGUMENT")
    assert.match(error.message, /pinned NodePort class nodeport-pinned/)
  })))

for (const [name, cls] of [["unpinned NodePort", CLASS.nodePort], ["LoadBalancer", CLASS.loadBalancer], ["ClusterIP", CLASS.clusterIp]] as const) {
  test(`${name} class → no topology`, () =>
    runInCluster(Effect.gen(function*() {
      yield* withPvc("p", { "listeners.stackable.tech/listener-class": cls })
      const volume = yield* provisionVolume(request("p"))
      assert.deepEqual(volume.accessibleTopology, [])
      assert.deepEqual(volume.volumeContext, { "listeners.stackable.tech/listener-class": cls })
    })))
}

test("listener-name → the class of the named Listener decides pinning", () =>
  runInCluster(Effect.gen(function*() {
    yield* withPvc("shared-0", { "listeners.stackable.tech/listener-name": "pinned-shared" })
    yield* createListener("pinned-shared", { className: CLASS.pinned, ports: [] })
    const volume = yield* provisionVolume(request("shared-0"))
    assert.deepEqual(volume.volumeContext, { "listeners.stackable.tech/listener-name": "pinned-shared" })
    assert.deepEqual(volume.accessibleTopology, [node2])
  })))

test("listener-name whose Listener is missing → VolumeApiStepFailed (UNAVAILABLE); without className → ListenerHasNoClass", () =>
  runInCluster(Effect.gen(function*() {
    yield* withPvc("shared-0", { "listeners.stackable.tech/listener-name": "later" })
    const missing = yield* Effect.flip(provisionVolume(request("shared-0")))
    assert.equal(missing._tag, "VolumeApiStepFailed")
    assert.equal(volumeErrorCodes[missing._tag], "UNAVAILABLE")
    assert.match(missing.message, /load Listener default\/later: NotFound/)
    yield* createListener("later", { ports: [] })
    const classless = yield* Effect.flip(provisionVolume(request("shared-0")))
    assert.equal(classless._tag, "ListenerHasNoClass")
    assert.equal(volumeErrorCodes[classless._tag], "FAILED_PRECONDITION")
  })))

test("ListenerClass missing → VolumeApiStepFailed (load ListenerClass)", () =>
  runInCluster(Effect.gen(function*() {
    yield* withPvc("p", { "listeners.stackable.tech/listener-class": "nope" })
    const error = yield* Effect.flip(provisionVolume(request("p")))
    assert.equal(error._tag, "VolumeApiStepFailed")
    assert.match(error.message, /load ListenerClass nope: NotFound/)
  })))

test("PVC with both annotations, or neither → ListenerSelectionInvalid (INVALID_ARGUMENT)", () =>
  runInCluster(Effect.gen(function*() {
    yield* withPvc("both", {
      "listeners.stackable.tech/listener-class": CLASS.nodePort,
      "listeners.stackable.tech/listener-name": "x"
    })
    const api = yield* KubeApi
    yield* api.create(Kinds.PersistentVolumeClaim, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "neither", namespace: NAMESPACE },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1" } } }
    })
    const both = yield* Effect.flip(provisionVolume(request("both")))
    assert.equal(both._tag, "ListenerSelectionInvalid")
    assert.equal(volumeErrorCodes[both._tag], "INVALID_ARGUMENT")
    assert.match(both.message, /PersistentVolumeClaim default\/both has both/)
    const neither = yield* Effect.flip(provisionVolume(request("neither")))
    assert.equal(neither._tag, "ListenerSelectionInvalid")
    assert.match(neither.message, /PersistentVolumeClaim default\/neither has neither/)

    // Explained on the PVC, once per PVC however often the provisioner retries.
    yield* Effect.flip(provisionVolume(request("both")))
    const cluster = yield* KubeApiMemory
    const events = cluster.objects(Kinds.Event, NAMESPACE).map((e) => ({
      on: `${(e["regarding"] as { kind: string }).kind}/${(e["regarding"] as { name: string }).name}`,
      reason: e["reason"],
      action: e["action"],
      note: String(e["note"]),
      count: (e["series"] as { count?: number } | undefined)?.count ?? 1
    }))
    assert.deepEqual(events.map(({ on, reason, action, count }) => ({ on, reason, action, count })), [
      { on: "PersistentVolumeClaim/both", reason: "InvalidListenerVolume", action: "CreateVolume", count: 2 },
      { on: "PersistentVolumeClaim/neither", reason: "InvalidListenerVolume", action: "CreateVolume", count: 1 }
    ])
    assert.match(events[0]!.note, /recreate the PVC with exactly one of them/)
  })))

test("PVC not found → VolumeApiStepFailed (load PersistentVolumeClaim, UNAVAILABLE)", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const error = yield* Effect.flip(provisionVolume(request("ghost")))
    assert.equal(error._tag, "VolumeApiStepFailed")
    assert.match(error.message, /load PersistentVolumeClaim default\/ghost: NotFound/)
  })))

test("a bare volume (no PVC parameters): empty context, no topology", () =>
  runInCluster(Effect.gen(function*() {
    const volume = yield* provisionVolume(request("x", { pvc: undefined }))
    assert.deepEqual(volume, { volumeId: "pvc-1234", capacityBytes: 0, volumeContext: {}, accessibleTopology: [] })
  })))

test("pvcRefOf: both parameters → ref, neither → bare, one → VolumeParameterMissing naming the other", () => {
  assert.deepEqual(pvcRefOf({ "csi.storage.k8s.io/pvc/name": "a", "csi.storage.k8s.io/pvc/namespace": "ns" }), { namespace: "ns", name: "a" })
  assert.equal(pvcRefOf({ other: "x" }), undefined)
  const missing = pvcRefOf({ "csi.storage.k8s.io/pvc/name": "a" })
  assert.ok(missing instanceof VolumeParameterMissing)
  assert.equal(missing.parameter, "csi.storage.k8s.io/pvc/namespace")
  assert.equal(volumeErrorCodes[missing._tag], "INVALID_ARGUMENT")
  assert.match(missing.message, /--extra-create-metadata/)
})

test("DeleteVolume succeeds for any id; volumeExists answers from the PV", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    yield* deleteVolume("anything")
    yield* createVolume({ pvcName: "p", volumeId: "pvc-9", annotations: { "listeners.stackable.tech/listener-class": CLASS.nodePort } })
    assert.equal(yield* volumeExists("pvc-9"), true)
    assert.equal(yield* volumeExists("pvc-unknown"), false)
  })))
