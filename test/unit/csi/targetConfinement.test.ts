/**
 * With the kubelet's pods directory configured (the chart always sets it), NodePublishVolume
 * and NodeUnpublishVolume refuse every target path but the kubelet's own shape with
 * INVALID_ARGUMENT naming target_path — so nothing on the socket can make the plugin write
 * or remove files elsewhere on the node, or a whole Pod directory. Unset, any normalised
 * absolute path is served (csi-sanity).
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import { decodeNodePublishVolume, decodeNodeUnpublishVolume } from "../../../csi/requests.ts"

const PODS = "/var/lib/kubelet/pods"
const publish = (target_path: string) => ({
  volume_id: "pvc-1",
  target_path,
  volume_capability: { mount: {}, access_mode: { mode: "SINGLE_NODE_WRITER" as const } },
  volume_context: {
    "csi.storage.k8s.io/pod.name": "web-0",
    "csi.storage.k8s.io/pod.namespace": "default",
    "listeners.stackable.tech/listener-name": "web"
  }
})

const outside = [
  "/etc/passwd", PODS, "/var/lib/kubelet/podsx/a/mount", "/var/lib/kubelet/plugins/x", "/tmp/csi-mount/target",
  `${PODS}/0a1b`, `${PODS}/0a1b/volumes`, `${PODS}/0a1b/volumes/kubernetes.io~csi/pvc-1`,
  `${PODS}/0a1b/volumes/kubernetes.io~empty-dir/data/mount`, `${PODS}/0a1b/volumes/kubernetes.io~csi/pvc-1/mount/deeper`
]

test("target paths other than the kubelet's volume paths are refused, naming target_path and the expected shape", async () => {
  for (const path of outside) {
    for (const decode of [decodeNodePublishVolume(publish(path), PODS), decodeNodeUnpublishVolume({ volume_id: "v", target_path: path }, PODS)]) {
      const error = await Effect.runPromise(Effect.flip(decode))
      assert.equal(error._tag, "InvalidRequest", path)
      assert.equal((error as { field?: string }).field, "target_path", path)
      assert.match(error.message, /^target_path: .* is not a kubelet volume path \/var\/lib\/kubelet\/pods\/<pod uid>\/volumes\/kubernetes.io~csi\/<volume>\/mount/u, path)
    }
  }
})

test("the kubelet's own target paths are served, with or without a trailing / on the configured directory", async () => {
  const target = `${PODS}/0a1b/volumes/kubernetes.io~csi/pvc-1/mount`
  for (const dir of [PODS, `${PODS}/`]) {
    const input = await Effect.runPromise(decodeNodePublishVolume(publish(target), dir))
    assert.equal(input.targetPath, target)
    assert.equal((await Effect.runPromise(decodeNodeUnpublishVolume({ volume_id: "v", target_path: target }, dir))).targetPath, target)
  }
})

test("unset, any normalised absolute path is served", async () => {
  assert.equal((await Effect.runPromise(decodeNodePublishVolume(publish("/tmp/csi-mount/target")))).targetPath, "/tmp/csi-mount/target")
})

test("paths and names longer than Linux allows are refused as arguments, not failed as internal errors", async () => {
  for (const [path, problem] of [[`${PODS}/${"x".repeat(256)}/volumes/kubernetes.io~csi/pv/mount`, /256-byte name/u], [`${PODS}/${"abcdefgh".repeat(520)}/volumes/kubernetes.io~csi/pv/mount`, /at most 4095/u]] as const) {
    const error = await Effect.runPromise(Effect.flip(decodeNodePublishVolume(publish(path), PODS)))
    assert.equal((error as { field?: string }).field, "target_path")
    assert.match(error.message, problem)
  }
})
