/**
 * The Controller and Node services over a real socket, with recording fakes in place of
 * the programs: every validation case answers INVALID_ARGUMENT naming the field (and never
 * reaches a program), valid requests reach the programs as typed inputs, and the answers
 * are encoded as the CSI spec and csi-sanity expect.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { status } from "@grpc/grpc-js"
import { Effect, Layer, References, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeCsiClient } from "../../../csi/client.ts"
import type { CsiClient } from "../../../csi/client.ts"
import { makeControllerService } from "../../../csi/controllerService.ts"
import { makeIdentityService } from "../../../csi/identity.ts"
import { makeNodeService } from "../../../csi/nodeService.ts"
import { VolumeProvisioner, VolumePublisher } from "../../../csi/programs.ts"
import { ListenerAddressesNotReady } from "../../../effects/shared/volumeErrors.ts"
import type { CreateVolumeInput, ProvisionedVolume, PublishVolumeInput, UnpublishVolumeInput } from "../../../csi/programs.ts"
import type { AccessModeName, VolumeCapability } from "../../../csi/proto.ts"
import { serveCsi } from "../../../csi/server.ts"

interface Recorded {
  readonly created: CreateVolumeInput[]
  readonly deleted: string[]
  readonly published: PublishVolumeInput[]
  readonly unpublished: UnpublishVolumeInput[]
}

const KNOWN_VOLUME = "pvc-known"

const fakes = (recorded: Recorded, volume: (input: CreateVolumeInput) => ProvisionedVolume) =>
  Layer.mergeAll(
    Layer.succeed(VolumeProvisioner, VolumeProvisioner.of({
      createVolume: (input) => Effect.sync(() => (recorded.created.push(input), volume(input))),
      deleteVolume: (volumeId) => Effect.sync(() => void recorded.deleted.push(volumeId)),
      volumeExists: (volumeId) => Effect.succeed(volumeId === KNOWN_VOLUME)
    })),
    Layer.succeed(VolumePublisher, VolumePublisher.of({
      publish: (input) =>
        input.volumeId === "pvc-pending"
          ? Effect.fail(new ListenerAddressesNotReady({ namespace: "ns", listener: "web", awaiting: "ListenerAddresses", problem: "no ingress address yet" }))
          : Effect.sync(() => void recorded.published.push(input)),
      unpublish: (input) => Effect.sync(() => void recorded.unpublished.push(input))
    }))
  )

/** Serves Identity + Controller + Node (as the demo does) over fakes, for one test body. */
const withServices = <A, E>(
  body: (client: CsiClient, recorded: Recorded) => Effect.Effect<A, E, Scope.Scope>,
  volume: (input: CreateVolumeInput) => ProvisionedVolume = (input) => ({
    volumeId: input.name,
    volumeContext: {},
    accessibleTopology: []
  })
): Promise<A> => {
  const dir = mkdtempSync(join(tmpdir(), "csi-"))
  const socket = join(dir, "csi.sock")
  const recorded: Recorded = { created: [], deleted: [], published: [], unpublished: [] }
  return Effect.runPromise(Effect.gen(function*() {
    yield* serveCsi({
      endpoint: `unix://${socket}`,
      services: [
        yield* makeIdentityService({ vendorVersion: "0.1.0", controllerService: true, readiness: Effect.void }),
        yield* makeControllerService,
        yield* makeNodeService({ nodeName: "node-1" })
      ]
    })
    return yield* body(yield* makeCsiClient(socket), recorded)
  }).pipe(
    Effect.provide(fakes(recorded, volume)),
    Effect.scoped,
    Effect.provideService(References.MinimumLogLevel, "None"),
    Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true })))
  ))
}

const mount = (mode: AccessModeName = "SINGLE_NODE_WRITER"): VolumeCapability => ({ mount: {}, access_mode: { mode } })
const block: VolumeCapability = { block: {}, access_mode: { mode: "SINGLE_NODE_WRITER" } }
const podContext = {
  "csi.storage.k8s.io/pod.name": "web-0",
  "csi.storage.k8s.io/pod.namespace": "default",
  "csi.storage.k8s.io/pod.uid": "0a1b",
  "csi.storage.k8s.io/serviceAccount.name": "default",
  "csi.storage.k8s.io/ephemeral": "false",
  "listeners.stackable.tech/listener-class": "external-stable",
  "storage.kubernetes.io/csiProvisionerIdentity": "1700000000000-1234-listeners.stackable.tech"
}
const withoutKey = (map: Record<string, string>, key: string) => Object.fromEntries(Object.entries(map).filter(([k]) => k !== key))
const publishRequest = { volume_id: "pvc-1", target_path: "/var/lib/kubelet/pods/0a1b/volumes/kubernetes.io~csi/pvc-1/mount", volume_capability: mount() }

type Case = readonly [label: string, call: (client: CsiClient) => Effect.Effect<unknown, unknown>, field: string]

const invalidCases: ReadonlyArray<Case> = [
  ["CreateVolume without name", (c) => c.call("Controller", "CreateVolume", {}), "name"],
  ["CreateVolume without capabilities", (c) => c.call("Controller", "CreateVolume", { name: "v" }), "volume_capabilities"],
  ["CreateVolume with a block capability", (c) => c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [block] }), "volume_capabilities[0].block"],
  ["CreateVolume with a second capability without access type", (c) =>
    c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [mount(), { access_mode: { mode: "SINGLE_NODE_WRITER" } }] }), "volume_capabilities[1].access_type"],
  ["CreateVolume without access mode", (c) => c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [{ mount: {} }] }), "volume_capabilities[0].access_mode"],
  ["CreateVolume with access mode UNKNOWN", (c) => c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [mount("UNKNOWN")] }), "volume_capabilities[0].access_mode"],
  ["CreateVolume from a snapshot", (c) =>
    c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [mount()], volume_content_source: { snapshot: { snapshot_id: "s" } } }), "volume_content_source"],
  ["CreateVolume with a PVC name but no namespace", (c) =>
    c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [mount()], parameters: { "csi.storage.k8s.io/pvc/name": "data" } }), "parameters[\"csi.storage.k8s.io/pvc/namespace\"]"],
  ["CreateVolume with a PVC namespace but no name", (c) =>
    c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [mount()], parameters: { "csi.storage.k8s.io/pvc/namespace": "ns" } }), "parameters[\"csi.storage.k8s.io/pvc/name\"]"],
  ["CreateVolume with an invalid PVC name", (c) =>
    c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [mount()], parameters: { "csi.storage.k8s.io/pvc/name": "../x", "csi.storage.k8s.io/pvc/namespace": "ns" } }), "parameters[\"csi.storage.k8s.io/pvc/name\"]"],
  ["CreateVolume with an invalid PVC namespace", (c) =>
    c.call("Controller", "CreateVolume", { name: "v", volume_capabilities: [mount()], parameters: { "csi.storage.k8s.io/pvc/name": "data", "csi.storage.k8s.io/pvc/namespace": "a.b" } }), "parameters[\"csi.storage.k8s.io/pvc/namespace\"]"],
  ["DeleteVolume without volume id", (c) => c.call("Controller", "DeleteVolume", {}), "volume_id"],
  ["ValidateVolumeCapabilities without volume id", (c) => c.call("Controller", "ValidateVolumeCapabilities", { volume_capabilities: [mount()] }), "volume_id"],
  ["ValidateVolumeCapabilities without capabilities", (c) => c.call("Controller", "ValidateVolumeCapabilities", { volume_id: KNOWN_VOLUME }), "volume_capabilities"],
  ["NodePublishVolume without anything", (c) => c.call("Node", "NodePublishVolume", {}), "volume_id"],
  ["NodePublishVolume without target path", (c) => c.call("Node", "NodePublishVolume", { volume_id: "v" }), "target_path"],
  ["NodePublishVolume with a relative target path", (c) => c.call("Node", "NodePublishVolume", { ...publishRequest, target_path: "mnt/target" }), "target_path"],
  ["NodePublishVolume with target path /", (c) => c.call("Node", "NodePublishVolume", { ...publishRequest, target_path: "/" }), "target_path"],
  ["NodePublishVolume with .. in the target path", (c) => c.call("Node", "NodePublishVolume", { ...publishRequest, target_path: "/var/lib/../../etc" }), "target_path"],
  ["NodePublishVolume with a trailing / in the target path", (c) => c.call("Node", "NodePublishVolume", { ...publishRequest, target_path: "/mnt/target/" }), "target_path"],
  ["NodePublishVolume without capability (context also missing)", (c) =>
    c.call("Node", "NodePublishVolume", { volume_id: "v", target_path: "/tmp/csi-mount/target" }), "volume_capability"],
  ["NodePublishVolume with a block capability", (c) => c.call("Node", "NodePublishVolume", { ...publishRequest, volume_capability: block, volume_context: podContext }), "volume_capability.block"],
  ["NodePublishVolume without access mode", (c) => c.call("Node", "NodePublishVolume", { ...publishRequest, volume_capability: { mount: {} }, volume_context: podContext }), "volume_capability.access_mode"],
  ["NodePublishVolume without pod info (csi-sanity)", (c) => c.call("Node", "NodePublishVolume", publishRequest), "volume_context[\"csi.storage.k8s.io/pod.name\"]"],
  ["NodePublishVolume without pod namespace", (c) =>
    c.call("Node", "NodePublishVolume", { ...publishRequest, volume_context: withoutKey(podContext, "csi.storage.k8s.io/pod.namespace") }), "volume_context[\"csi.storage.k8s.io/pod.namespace\"]"],
  ["NodePublishVolume with an invalid pod name", (c) =>
    c.call("Node", "NodePublishVolume", { ...publishRequest, volume_context: { ...podContext, "csi.storage.k8s.io/pod.name": "web/0" } }), "volume_context[\"csi.storage.k8s.io/pod.name\"]"],
  ["NodePublishVolume with both listener annotations", (c) =>
    c.call("Node", "NodePublishVolume", { ...publishRequest, volume_context: { ...podContext, "listeners.stackable.tech/listener-name": "web" } }), "volume_context[\"listeners.stackable.tech/listener-name\"]"],
  ["NodePublishVolume with neither listener annotation", (c) =>
    c.call("Node", "NodePublishVolume", { ...publishRequest, volume_context: withoutKey(podContext, "listeners.stackable.tech/listener-class") }), "volume_context[\"listeners.stackable.tech/listener-class\"]"],
  ["NodePublishVolume with an invalid listener name", (c) =>
    c.call("Node", "NodePublishVolume", {
      ...publishRequest,
      volume_context: { ...withoutKey(podContext, "listeners.stackable.tech/listener-class"), "listeners.stackable.tech/listener-name": "a/b" }
    }), "volume_context[\"listeners.stackable.tech/listener-name\"]"],
  ["NodeUnpublishVolume without volume id", (c) => c.call("Node", "NodeUnpublishVolume", {}), "volume_id"],
  ["NodeUnpublishVolume without target path", (c) => c.call("Node", "NodeUnpublishVolume", { volume_id: "v" }), "target_path"],
  ["NodeUnpublishVolume with a relative target path", (c) => c.call("Node", "NodeUnpublishVolume", { volume_id: "v", target_path: "x" }), "target_path"]
]

test("every invalid request answers INVALID_ARGUMENT naming the field, before any program runs", () =>
  withServices((client, recorded) =>
    Effect.gen(function*() {
      for (const [label, call, field] of invalidCases) {
        const error = yield* Effect.flip(call(client))
        assert.equal((error as { code?: unknown }).code, status.INVALID_ARGUMENT, label)
        const details = (error as { details: string }).details
        assert.ok(details.startsWith(`${field}: `), `${label}: ${JSON.stringify(details)} should name ${field}`)
      }
      assert.deepEqual(recorded, { created: [], deleted: [], published: [], unpublished: [] })
    })))

test("ControllerGetCapabilities offers CREATE_DELETE_VOLUME; NodeGetCapabilities nothing; NodeGetInfo the node and its topology", () =>
  withServices((client) =>
    Effect.gen(function*() {
      const controller = yield* client.call("Controller", "ControllerGetCapabilities", {})
      assert.deepEqual(controller.capabilities.map((capability) => capability.rpc.type), ["CREATE_DELETE_VOLUME"])
      const node = yield* client.call("Node", "NodeGetCapabilities", {})
      assert.deepEqual(node.capabilities, [])
      const info = yield* client.call("Node", "NodeGetInfo", {})
      assert.equal(info.node_id, "node-1")
      assert.equal(String(info.max_volumes_per_node), "0")
      assert.deepEqual(info.accessible_topology.segments, { "listeners.stackable.tech/hostname": "node-1" })
    })))

test("CreateVolume passes the decoded request to the provisioner and encodes its volume", () =>
  withServices(
    (client, recorded) =>
      Effect.gen(function*() {
        const response = yield* client.call("Controller", "CreateVolume", {
          name: "pvc-1234",
          capacity_range: { required_bytes: "1073741824" },
          volume_capabilities: [{ mount: { fs_type: "ext4", mount_flags: ["ro"] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" } }],
          parameters: {
            "csi.storage.k8s.io/pvc/name": "data-web-0",
            "csi.storage.k8s.io/pvc/namespace": "default",
            "csi.storage.k8s.io/pv/name": "pvc-1234"
          },
          accessibility_requirements: {
            requisite: [{ segments: { "listeners.stackable.tech/hostname": "node-1" } }, { segments: { "listeners.stackable.tech/hostname": "node-2" } }],
            preferred: [{ segments: { "listeners.stackable.tech/hostname": "node-2" } }, { segments: { "listeners.stackable.tech/hostname": "node-1" } }]
          }
        })
        assert.deepEqual(recorded.created, [{
          name: "pvc-1234",
          capabilities: [{ accessMode: "MULTI_NODE_MULTI_WRITER", fsType: "ext4", mountFlags: ["ro"] }],
          pvc: { name: "data-web-0", namespace: "default" },
          parameters: {
            "csi.storage.k8s.io/pvc/name": "data-web-0",
            "csi.storage.k8s.io/pvc/namespace": "default",
            "csi.storage.k8s.io/pv/name": "pvc-1234"
          },
          requisiteTopologies: [{ "listeners.stackable.tech/hostname": "node-1" }, { "listeners.stackable.tech/hostname": "node-2" }],
          preferredTopologies: [{ "listeners.stackable.tech/hostname": "node-2" }, { "listeners.stackable.tech/hostname": "node-1" }]
        }])
        assert.equal(response.volume.volume_id, "pvc-1234")
        assert.equal(String(response.volume.capacity_bytes), "0")
        assert.deepEqual(response.volume.volume_context, { "listeners.stackable.tech/listener-class": "external-stable" })
        assert.deepEqual(response.volume.accessible_topology.map((topology) => topology.segments), [{ "listeners.stackable.tech/hostname": "node-2" }])
      }),
    (input) => ({
      volumeId: input.name,
      volumeContext: { "listeners.stackable.tech/listener-class": "external-stable" },
      accessibleTopology: input.preferredTopologies.slice(0, 1)
    })
  ))

test("CreateVolume without PVC parameters (csi-sanity) is a bare volume: no PVC, no topology", () =>
  withServices((client, recorded) =>
    Effect.gen(function*() {
      const response = yield* client.call("Controller", "CreateVolume", { name: "sanity-1", volume_capabilities: [mount()] })
      assert.equal(recorded.created[0]?.pvc, undefined)
      assert.deepEqual(recorded.created[0]?.requisiteTopologies, [])
      assert.deepEqual(recorded.created[0]?.preferredTopologies, [])
      assert.equal(response.volume.volume_id, "sanity-1")
      assert.deepEqual(response.volume.accessible_topology, [])
    })))

test("DeleteVolume hands the id to the provisioner", () =>
  withServices((client, recorded) =>
    Effect.gen(function*() {
      assert.deepEqual(yield* client.call("Controller", "DeleteVolume", { volume_id: "pvc-gone" }), {})
      assert.deepEqual(recorded.deleted, ["pvc-gone"])
    })))

test("ValidateVolumeCapabilities: NOT_FOUND for an unknown volume, confirmed for mount, a message for block", () =>
  withServices((client) =>
    Effect.gen(function*() {
      const unknown = yield* Effect.flip(client.call("Controller", "ValidateVolumeCapabilities", { volume_id: "pvc-unknown", volume_capabilities: [mount()] }))
      assert.equal(unknown.code, status.NOT_FOUND)
      assert.match(unknown.details, /pvc-unknown/)

      const confirmed = yield* client.call("Controller", "ValidateVolumeCapabilities", {
        volume_id: KNOWN_VOLUME,
        volume_context: { a: "b" },
        volume_capabilities: [mount("SINGLE_NODE_WRITER"), mount("MULTI_NODE_READER_ONLY")],
        parameters: { p: "q" }
      })
      assert.deepEqual(confirmed.confirmed?.volume_context, { a: "b" })
      assert.deepEqual(confirmed.confirmed?.parameters, { p: "q" })
      assert.deepEqual(confirmed.confirmed?.volume_capabilities.map((capability) => capability.access_mode?.mode), [
        "SINGLE_NODE_WRITER",
        "MULTI_NODE_READER_ONLY"
      ])
      assert.ok(confirmed.confirmed?.volume_capabilities.every((capability) => capability.mount !== null))

      const refused = yield* client.call("Controller", "ValidateVolumeCapabilities", { volume_id: KNOWN_VOLUME, volume_capabilities: [mount(), block] })
      assert.equal(refused.confirmed, null)
      assert.match(refused.message, /volume_capabilities\[1\]\.block: block volumes are not supported/)
    })))

test("NodePublishVolume passes the decoded request to the publisher; its failures keep their code", () =>
  withServices((client, recorded) =>
    Effect.gen(function*() {
      assert.deepEqual(
        yield* client.call("Node", "NodePublishVolume", { ...publishRequest, readonly: true, volume_context: podContext }),
        {}
      )
      assert.deepEqual(recorded.published, [{
        volumeId: "pvc-1",
        targetPath: publishRequest.target_path,
        readonly: true,
        capability: { accessMode: "SINGLE_NODE_WRITER", fsType: "", mountFlags: [] },
        pod: { name: "web-0", namespace: "default", uid: "0a1b" },
        listener: { _tag: "ListenerClass", className: "external-stable" },
        volumeContext: podContext
      }])

      const byName = { ...withoutKey(podContext, "listeners.stackable.tech/listener-class"), "listeners.stackable.tech/listener-name": "shared" }
      yield* client.call("Node", "NodePublishVolume", { ...publishRequest, volume_context: byName })
      assert.deepEqual(recorded.published[1]?.listener, { _tag: "ListenerName", listenerName: "shared" })

      const pending = yield* Effect.flip(client.call("Node", "NodePublishVolume", { ...publishRequest, volume_id: "pvc-pending", volume_context: podContext }))
      assert.equal(pending.code, status.UNAVAILABLE)
      assert.equal(pending.details, "Listener ns/web has no addresses yet: no ingress address yet")
    })))

test("an inline CSI volume is refused with FAILED_PRECONDITION before the publisher runs", () =>
  withServices((client, recorded) =>
    Effect.gen(function*() {
      const inline = { ...withoutKey(podContext, "listeners.stackable.tech/listener-class"), "csi.storage.k8s.io/ephemeral": "true" }
      const error = yield* Effect.flip(client.call("Node", "NodePublishVolume", { ...publishRequest, volume_context: inline }))
      assert.equal(error.code, status.FAILED_PRECONDITION)
      assert.match(error.details, /pvc-1 is an inline CSI volume \(volumes\[\]\.csi\)/)
      assert.deepEqual(recorded.published, [])
    })))

test("NodeUnpublishVolume hands volume id and target path to the publisher", () =>
  withServices((client, recorded) =>
    Effect.gen(function*() {
      assert.deepEqual(yield* client.call("Node", "NodeUnpublishVolume", { volume_id: "pvc-1", target_path: "/tmp/csi-mount/target" }), {})
      assert.deepEqual(recorded.unpublished, [{ volumeId: "pvc-1", targetPath: "/tmp/csi-mount/target" }])
    })))
