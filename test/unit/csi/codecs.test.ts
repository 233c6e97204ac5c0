/**
 * The generated codecs (csi/generated/messages.js) against the .proto files: up to date
 * with them, method definitions that match every RPC they declare, and decoded objects
 * identical to what @grpc/proto-loader (the .proto parsed at run time) produces for the
 * same bytes — so handing grpc-js our codecs is the same as handing it proto-loader's.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { loadSync } from "@grpc/proto-loader"
import type { MethodDefinition } from "@grpc/proto-loader"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { csiMessage } from "../../../csi/grpc/codecs.ts"
import { csiMethod } from "../../../csi/grpc/methods.ts"
import { withTempDir } from "../withTempDir.ts"

const root = join(import.meta.dirname, "..", "..", "..")
const LOADER_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true }
const definition = loadSync([join(root, "csi", "csi.proto"), join(root, "csi", "registration.proto")], LOADER_OPTIONS)

test("csi/generated/messages.js is what `npm run proto` makes of the .proto files today", () =>
  withTempDir("proto-", async (dir) => {
    const script = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.proto as string
    const out = join(dir, "messages.js")
    const args = script.replace(/^pbjs /u, "").replace("csi/generated/messages.js", out).split(" ")
    const run = spawnSync(join(root, "node_modules", ".bin", "pbjs"), args, { cwd: root, encoding: "utf8" })
    assert.equal(run.status, 0, run.stderr)
    assert.equal(readFileSync(out, "utf8"), readFileSync(join(root, "csi", "generated", "messages.js"), "utf8"), "run npm run proto and commit the result")
  }))

test("every csi.v1 RPC of csi.proto is a unary method taking <Method>Request and returning <Method>Response", () => {
  const rpcs = Object.entries(definition).filter(([name]) => /^csi\.v1\.(Identity|Controller|Node)$/u.test(name))
  assert.equal(rpcs.length, 3)
  for (const [serviceName, service] of rpcs) {
    for (const [method, rpc] of Object.entries(service as Record<string, MethodDefinition<unknown, unknown>>)) {
      const ours = csiMethod(serviceName.split(".")[2] as "Identity", method)
      assert.equal(ours.path, rpc.path)
      assert.equal(ours.originalName, rpc.originalName)
      assert.equal(ours.requestStream, rpc.requestStream)
      assert.equal(ours.responseStream, rpc.responseStream)
      assert.equal(ours.request.name, (rpc.requestType as { type: { name: string } }).type.name === "" ? "" : `csi.v1.${(rpc.requestType as { type: { name: string } }).type.name}`)
      assert.equal(ours.response.name, `csi.v1.${(rpc.responseType as { type: { name: string } }).type.name}`)
    }
  }
})

const nodePublish = definition["csi.v1.Node"] as Record<string, MethodDefinition<object, object>>
const createVolume = (definition["csi.v1.Controller"] as Record<string, MethodDefinition<object, object>>)["CreateVolume"]!

test("decoded requests are exactly proto-loader's objects (snake_case, int64 strings, enum names, defaults, null messages, oneof names)", () => {
  const publish = nodePublish["NodePublishVolume"]!
  const request = {
    volume_id: "pvc-1",
    target_path: "/var/lib/kubelet/pods/u/volumes/kubernetes.io~csi/pvc-1/mount",
    volume_capability: { mount: { fs_type: "", mount_flags: ["ro"] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" } },
    volume_context: { "csi.storage.k8s.io/pod.name": "web-0", "listeners.stackable.tech/listener-class": "external-stable" },
    readonly: false
  }
  const bytes = publish.requestSerialize(request)
  assert.deepEqual(csiMessage("NodePublishVolumeRequest").decode(bytes), publish.requestDeserialize(bytes))
  const empty = publish.requestSerialize({})
  const decodedEmpty = csiMessage("NodePublishVolumeRequest").decode(empty)
  assert.deepEqual(decodedEmpty, publish.requestDeserialize(empty))
  assert.equal(decodedEmpty["volume_capability"], null)
  assert.deepEqual(decodedEmpty["volume_context"], {})

  const create = {
    name: "pvc-2",
    capacity_range: { required_bytes: "1073741824", limit_bytes: "0" },
    volume_capabilities: [{ block: {}, access_mode: { mode: 99 } }],
    accessibility_requirements: { preferred: [{ segments: { "listeners.stackable.tech/hostname": "n1" } }] },
    parameters: { "csi.storage.k8s.io/pvc/name": "listener-web-0" }
  }
  const createBytes = createVolume.requestSerialize(create)
  const decoded = csiMessage("CreateVolumeRequest").decode(createBytes)
  assert.deepEqual(decoded, createVolume.requestDeserialize(createBytes))
  const capability = (decoded["volume_capabilities"] as Array<Record<string, unknown>>)[0]!
  assert.equal(capability["access_type"], "block", "the oneof names its member")
  assert.deepEqual(capability["access_mode"], { mode: 99 }, "an enum value the proto does not know stays a number")
  assert.equal((decoded["capacity_range"] as Record<string, unknown>)["required_bytes"], "1073741824")
})

test("encoded responses decode, by proto-loader, to what we meant (enum names, int64 numbers or strings, wrappers)", () => {
  const response = {
    volume: { capacity_bytes: 0, volume_id: "pvc-2", volume_context: { a: "b" }, accessible_topology: [{ segments: { "listeners.stackable.tech/hostname": "n1" } }] }
  }
  const decoded = createVolume.responseDeserialize(Buffer.from(csiMessage("CreateVolumeResponse").encode(response))) as { volume: Record<string, unknown> }
  assert.equal(decoded.volume["volume_id"], "pvc-2")
  assert.equal(decoded.volume["capacity_bytes"], "0")
  assert.deepEqual(decoded.volume["accessible_topology"], [{ segments: { "listeners.stackable.tech/hostname": "n1" } }])
  const identity = definition["csi.v1.Identity"] as Record<string, MethodDefinition<object, object>>
  const probe = identity["Probe"]!.responseDeserialize(Buffer.from(csiMessage("ProbeResponse").encode({ ready: { value: true } })))
  assert.deepEqual(probe, { ready: { value: true } })
  const caps = identity["GetPluginCapabilities"]!.responseDeserialize(Buffer.from(csiMessage("GetPluginCapabilitiesResponse").encode({
    capabilities: [{ service: { type: "CONTROLLER_SERVICE" } }, { service: { type: "VOLUME_ACCESSIBILITY_CONSTRAINTS" } }]
  })))
  assert.deepEqual(caps, { capabilities: [{ service: { type: "CONTROLLER_SERVICE" }, type: "service" }, { service: { type: "VOLUME_ACCESSIBILITY_CONSTRAINTS" }, type: "service" }] })
})

test("bytes that are not the message are refused with a reason", () => {
  const garbage = new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f])
  assert.throws(() => csiMessage("NodePublishVolumeRequest").decode(garbage), /index out of range|invalid/iu)
  assert.throws(() => csiMessage("NoSuchMessage"), /csi\.v1\.NoSuchMessage is not in the generated code/)
  // The server's deserializer never throws (grpc-js would answer INTERNAL and hide why):
  // it names the message, for the handler to answer INVALID_ARGUMENT.
  const refused = csiMethod("Node", "NodePublishVolume").requestDeserialize(Buffer.from(garbage))
  assert.equal(refused.ok, false)
  assert.match(refused.ok ? "" : refused.details, /^the request is not a valid csi\.v1\.NodePublishVolumeRequest: (index out of range|invalid)/iu)
  // The client's deserializer throws, which grpc-js answers INTERNAL with the reason.
  assert.throws(() => csiMethod("Node", "NodeGetInfo").responseDeserialize(Buffer.from(garbage)))
})

test("the method definition's serializers are the codecs: what the client sends, the server decodes", () => {
  const method = csiMethod("Node", "NodePublishVolume")
  const request = { volume_id: "pvc-1", target_path: "/t", readonly: true }
  const decoded = method.requestDeserialize(method.requestSerialize(request))
  assert.ok(decoded.ok)
  assert.equal(decoded.request["volume_id"], "pvc-1")
  assert.equal(decoded.request["readonly"], true)
  const bytes = method.responseSerialize({})
  assert.ok(Buffer.isBuffer(bytes), "grpc-js writes Buffers")
  assert.deepEqual(method.responseDeserialize(bytes), {})
})
