import { test } from "node:test"
import assert from "node:assert/strict"
import { publishRequestShape } from "../../../csi/publishRequestShape.ts"

test("the shape of a kubelet's NodePublishVolume request hides per-call values and keeps its form", () => {
  const uid = "0b6c7f2e-2b1a-4c5e-9f00-1234567890ab"
  const shape = publishRequestShape({
    volume_id: "pvc-42",
    target_path: `/var/lib/kubelet/pods/${uid}/volumes/kubernetes.io~csi/pvc-42/mount`,
    staging_target_path: "",
    volume_capability: { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" }, access_type: "mount" },
    readonly: false,
    secrets: { token: "secret value" },
    publish_context: {},
    volume_context: {
      "listeners.stackable.tech/listener-class": "external-stable",
      "csi.storage.k8s.io/pod.uid": uid,
      "csi.storage.k8s.io/pod.name": "kafka-0"
    }
  })
  assert.deepEqual(shape, {
    volumeContextKeys: ["csi.storage.k8s.io/pod.name", "csi.storage.k8s.io/pod.uid", "listeners.stackable.tech/listener-class"],
    targetPathPattern: "/var/lib/kubelet/pods/<uid>/volumes/kubernetes.io~csi/<pv>/mount",
    capability: { kind: "mount", fsType: "", mountFlags: [], accessMode: "MULTI_NODE_MULTI_WRITER" },
    readonly: false,
    hasStagingTargetPath: false,
    publishContextKeys: [],
    secretKeys: ["token"]
  })
  assert.ok(!JSON.stringify(shape).includes("secret value"), "secret values never appear")
})

test("a request without a capability or context has an explicit empty shape", () => {
  const shape = publishRequestShape({ target_path: "/t", volume_capability: null })
  assert.equal(shape.capability.kind, "none")
  assert.equal(shape.capability.accessMode, "UNKNOWN")
  assert.deepEqual(shape.volumeContextKeys, [])
  assert.equal(shape.targetPathPattern, "/t")
  const block = publishRequestShape({ volume_capability: { block: {}, access_mode: { mode: "SINGLE_NODE_WRITER" } } })
  assert.equal(block.capability.kind, "block")
})
