import { test } from "node:test"
import assert from "node:assert/strict"
import { status } from "@grpc/grpc-js"
import { Effect, Layer } from "effect"
import { EventRecorder } from "../../../effects/shared/EventRecorder.ts"
import { PublishedVolumes } from "../../../effects/node/PublishedVolumes.ts"
import { TargetLocks } from "../../../effects/node/TargetLocks.ts"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { VolumeBinderRunning } from "../effects/shared/volumeBinderLayer.ts"
import { VolumeFsMemory } from "../../../adapters/VolumeFsMemory.ts"
import { makeControllerService } from "../../../csi/controllerService.ts"
import { makeNodeService } from "../../../csi/nodeService.ts"
import { callStatusOf } from "../../../csi/status.ts"
import type { ControllerHandlers, NodeHandlers } from "../../../csi/server.ts"
import type { CsiError } from "../../../csi/status.ts"
import { VolumeProvisionerLive, VolumePublisherLive } from "../../../csi/volumePrograms.ts"
import { Kinds } from "../../../domain/kinds.ts"
import { KubeApi } from "../../../effects/shared/KubeApi.ts"
import { VolumeFs } from "../../../effects/shared/VolumeFs.ts"
import { CLASS, createPod, createVolume, NAMESPACE, podContext, seedCluster } from "../effects/shared/volumeFixtures.ts"
import { KubeApiError } from "../../../effects/shared/KubeApi.ts"
import { VolumeFsError } from "../../../effects/shared/VolumeFs.ts"
import * as E from "../../../effects/shared/volumeErrors.ts"
import type { VolumeError } from "../../../effects/shared/volumeErrors.ts"

const apiError = (reason: "NotFound" | "Invalid") =>
  new KubeApiError({ reason, verb: "get", kind: "Pod", namespace: "ns", objectName: "p", message: `pods "p" ${reason}` })

// One example of every tag: status.ts must give each the gRPC code volumeErrorCodes promises.
const examples: ReadonlyArray<VolumeError> = [
  new E.VolumeParameterMissing({ parameter: "csi.storage.k8s.io/pvc/name" }),
  new E.ListenerSelectionInvalid({ source: "PersistentVolumeClaim ns/a", problem: "both" }),
  new E.PinningTopologyMissing({ volume: "v", listenerClass: "c" }),
  new E.VolumeApiStepFailed({ step: "load Pod", kind: "Pod", namespace: "ns", name: "p", cause: apiError("NotFound") }),
  new E.ListenerAddressesNotReady({ namespace: "ns", listener: "l", awaiting: "ListenerAddresses", problem: "none" }),
  new E.PodNotScheduled({ namespace: "ns", pod: "p" }),
  new E.AwaitingNodeBinding({ kind: "Listener", namespace: "ns", name: "l", nodeName: "n", found: { _tag: "Bound", to: "m" }, waitedMs: 10 }),
  new E.VolumeObjectInvalid({ kind: "Listener", namespace: "ns", name: "l", problem: "bad" }),
  new E.ListenerHasNoClass({ namespace: "ns", listener: "l" }),
  new E.InlineVolumeUnsupported({ volumeId: "v" }),
  new E.VolumeNotBound({ volumeId: "v", problem: "no claimRef" }),
  new E.PodReplaced({ namespace: "ns", pod: "p", expectedUid: "a", actualUid: "b" }),
  new E.PodTerminating({ namespace: "ns", pod: "p", deletionTimestamp: "2025-01-01T00:00:00Z" }),
  new E.PodVolumeNotFound({ namespace: "ns", pod: "p", claim: "c" }),
  new E.VolumeAddressRefused({ namespace: "ns", listener: "l", field: "address", value: "../x", problem: "is bad" }),
  new E.TargetParentMissing({ targetPath: "/p/mount", parent: "/p" }),
  new E.VolumeTreeWriteFailed({
    targetPath: "/t",
    step: "prepare tree",
    cause: new VolumeFsError({ reason: "NotFound", op: "mkdir", path: "/t", message: "no parent" })
  })
]

test("every volume error answers with the gRPC code of volumeErrorCodes and keeps its message", () => {
  assert.equal(new Set(examples.map((e) => e._tag)).size, Object.keys(E.volumeErrorCodes).length)
  for (const error of examples) {
    const answer = callStatusOf(error)
    assert.equal(status[answer.code], E.volumeErrorCodes[error._tag], error._tag)
    assert.ok(answer.details.includes(error.message), `${error._tag}: ${answer.details}`)
  }
})

test("an API step failure keeps the code of its KubeApiError reason", () => {
  const invalid = new E.VolumeApiStepFailed({ step: "apply Listener", kind: "Listener", namespace: "ns", name: "l", cause: apiError("Invalid") })
  const answer = callStatusOf(invalid)
  assert.equal(answer.code, status.FAILED_PRECONDITION)
  assert.match(answer.details, /^apply Listener ns\/l: Invalid: /)
})

// ---- the edge handlers over the programs, on the in-memory cluster and filesystem ------

const capability = { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "SINGLE_NODE_WRITER" as const } }
const HOST = "listeners.stackable.tech/hostname"

const withHandlers = <A>(
  body: (handlers: {
    readonly controller: Partial<ControllerHandlers>
    readonly node: Partial<NodeHandlers>
  }) => Effect.Effect<A, unknown, KubeApi | VolumeFs>
) =>
  Effect.gen(function*() {
    const controller = yield* makeControllerService
    const node = yield* makeNodeService({ nodeName: "node-1" })
    if (controller.name !== "Controller" || node.name !== "Node") return assert.fail("unexpected CSI services")
    return yield* body({ controller: controller.handlers, node: node.handlers })
  }).pipe(
    Effect.provide(Layer.mergeAll(VolumeProvisionerLive, VolumePublisherLive).pipe(
      Layer.provideMerge(VolumeBinderRunning),
      Layer.provideMerge(Layer.mergeAll(KubeApiMemory.layer(), VolumeFsMemory.layer, EventRecorder.layerNoop, PublishedVolumes.layerMemory, TargetLocks.layer))
    )),
    Effect.runPromise
  )

const codeOf = (effect: Effect.Effect<unknown, CsiError>) =>
  Effect.map(Effect.flip(effect), (error) => status[callStatusOf(error).code])

test("CreateVolume → NodePublishVolume through the CSI handlers: pinned volume, then the files", () =>
  withHandlers(({ controller, node }) =>
    Effect.gen(function*() {
      yield* seedCluster
      const api = yield* KubeApi
      const fs = yield* VolumeFs
      const { pvc } = yield* createVolume({
        pvcName: "data-web-0",
        volumeId: "pvc-1",
        annotations: { "listeners.stackable.tech/listener-class": CLASS.pinned }
      })
      yield* createPod({ name: "web-0", nodeName: "node-1", volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data-web-0" } }] })
      const created = yield* controller.CreateVolume!({
        name: "pvc-1",
        volume_capabilities: [capability],
        parameters: { "csi.storage.k8s.io/pvc/name": "data-web-0", "csi.storage.k8s.io/pvc/namespace": NAMESPACE },
        accessibility_requirements: { requisite: [{ segments: { [HOST]: "node-2" } }], preferred: [{ segments: { [HOST]: "node-1" } }] }
      })
      assert.deepEqual(created.volume.accessible_topology, [{ segments: { [HOST]: "node-1" } }])
      assert.deepEqual(created.volume.volume_context, { "listeners.stackable.tech/listener-class": CLASS.pinned })
      assert.equal(pvc.metadata.name, "data-web-0")

      yield* fs.mkdir("/kubelet/pvc-1", { recursive: true })
      const request = {
        volume_id: "pvc-1",
        target_path: "/kubelet/pvc-1/mount",
        volume_capability: capability,
        volume_context: { ...created.volume.volume_context, ...podContext("web-0") }
      }
      // No node ports yet: UNAVAILABLE, which the kubelet retries.
      assert.equal(yield* codeOf(node.NodePublishVolume!(request)), "UNAVAILABLE")
      const listener = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "data-web-0" })
      yield* api.updateStatus(Kinds.Listener, { ...listener, status: { nodePorts: { http: 30080, "port-9090": 30090 } } })
      yield* node.NodePublishVolume!(request)
      assert.equal(yield* fs.readFile("/kubelet/pvc-1/mount/addresses/10.0.0.1/ports/http"), "30080")
      yield* node.NodeUnpublishVolume!({ volume_id: "pvc-1", target_path: "/kubelet/pvc-1/mount" })
      assert.equal(yield* fs.entryType("/kubelet/pvc-1/mount"), undefined)
      // ValidateVolumeCapabilities knows the volume by its PV, and an unknown one is NOT_FOUND.
      const validated = yield* controller.ValidateVolumeCapabilities!({ volume_id: "pvc-1", volume_capabilities: [capability] })
      assert.notEqual(validated.confirmed, null)
      assert.equal(
        yield* codeOf(controller.ValidateVolumeCapabilities!({ volume_id: "nope", volume_capabilities: [capability] })),
        "NOT_FOUND"
      )
    })
  ))

test("a PVC with both annotations is refused by CreateVolume with INVALID_ARGUMENT", () =>
  withHandlers(({ controller }) =>
    Effect.gen(function*() {
      yield* seedCluster
      yield* createVolume({
        pvcName: "both",
        volumeId: "pvc-2",
        annotations: { "listeners.stackable.tech/listener-class": CLASS.nodePort, "listeners.stackable.tech/listener-name": "x" }
      })
      const code = yield* codeOf(controller.CreateVolume!({
        name: "pvc-2",
        volume_capabilities: [capability],
        parameters: { "csi.storage.k8s.io/pvc/name": "both", "csi.storage.k8s.io/pvc/namespace": NAMESPACE }
      }))
      assert.equal(code, "INVALID_ARGUMENT")
    })
  ))
