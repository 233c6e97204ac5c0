import { test } from "node:test"
import assert from "node:assert/strict"
import { BOUND_NODE_LABEL } from "../../../domain/constants.ts"
import {
  bindingPodOf,
  boundNodeOf,
  boundPerVolumeListener,
  boundPodListeners,
  claimNamesOf,
  formerPerVolumeListener,
  listenerPortsOf,
  perVolumeClassOf,
  perVolumeListenerBound
} from "../../../domain/volumeBinding.ts"

const DRIVER = "listeners.stackable.tech"

const pod = (name: string, extra: { nodeName?: string; created?: string; deleting?: boolean } = {}) => ({
  metadata: {
    name,
    namespace: "team",
    uid: `uid-${name}`,
    ...(extra.created !== undefined ? { creationTimestamp: extra.created } : {}),
    ...(extra.deleting === true ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {})
  },
  spec: {
    ...(extra.nodeName !== undefined ? { nodeName: extra.nodeName } : {}),
    containers: [
      { ports: [{ name: "http", containerPort: 8080 }, { containerPort: 9090, protocol: "UDP" }] },
      { ports: [{ name: "http", containerPort: 8081 }] }
    ],
    volumes: [
      { name: "data", persistentVolumeClaim: { claimName: "data-web-0" } },
      { name: "listener", ephemeral: {} },
      { name: "config" }
    ]
  }
})

test("the per-volume Listener's ports come from the Pod's containers, first name wins, unnamed ports get port-<n>", () => {
  assert.deepEqual(listenerPortsOf(pod("web-0")), [{ name: "http", port: 8080 }, { name: "port-9090", port: 9090, protocol: "UDP" }])
})

test("a Pod's claims: its PVCs and the <pod>-<volume> claims of its ephemeral volumes, nothing else", () => {
  assert.deepEqual(claimNamesOf(pod("web-0")), ["data-web-0", "web-0-listener"])
})

test("the PodListeners the binder creates: pod-<uid>, owned by the Pod (plain owner, as the node made it), bound, no entries", () => {
  const made = boundPodListeners({ namespace: "team", name: "web-0", uid: "u1" }, "node-a")
  assert.equal(made.metadata.name, "pod-u1")
  assert.deepEqual(made.metadata.labels, { [BOUND_NODE_LABEL]: "node-a" })
  assert.deepEqual(made.metadata.ownerReferences, [{ apiVersion: "v1", kind: "Pod", name: "web-0", uid: "u1" }])
  assert.deepEqual(made.spec, { listeners: {} })
  assert.equal(boundNodeOf(made), "node-a")
  assert.equal(boundNodeOf({ metadata: {} }), undefined)
})

test("only a bound listener-class volume of our driver, bound to the claim, gets a per-volume Listener", () => {
  const pv = (attributes: Record<string, string>, driver = DRIVER, claim = { namespace: "team", name: "data" }) => ({
    metadata: { name: "pv" },
    spec: { csi: { driver, volumeAttributes: attributes }, claimRef: claim }
  })
  const claim = { namespace: "team", name: "data" }
  assert.equal(perVolumeClassOf(pv({ "listeners.stackable.tech/listener-class": "nodes" }), DRIVER, claim), "nodes")
  assert.equal(perVolumeClassOf(pv({ "listeners.stackable.tech/listener-name": "shared" }), DRIVER, claim), undefined, "shared")
  assert.equal(perVolumeClassOf(pv({ "listeners.stackable.tech/listener-class": "nodes" }, "other.csi"), DRIVER, claim), undefined, "other driver")
  assert.equal(perVolumeClassOf(pv({ "listeners.stackable.tech/listener-class": "nodes" }, DRIVER, { namespace: "x", name: "data" }), DRIVER, claim), undefined, "other claim")
})

test("a per-volume Listener is bound when label, published-on label, owner and spec match; any difference means a write", () => {
  const made = boundPerVolumeListener({
    namespace: "team",
    name: "data",
    className: "nodes",
    labels: { app: "web" },
    pv: { name: "pv", uid: "pv-uid" },
    ports: [{ name: "http", port: 8080 }],
    nodeName: "node-a"
  })
  assert.deepEqual(made.metadata.labels, { app: "web", "listeners.stackable.tech/on.node-a": "true", [BOUND_NODE_LABEL]: "node-a" })
  const wanted = { pvUid: "pv-uid", className: "nodes", ports: [{ name: "http", port: 8080, protocol: "TCP" }], nodeName: "node-a" }
  assert.equal(perVolumeListenerBound(made, wanted), true, "TCP is the default protocol")
  assert.equal(perVolumeListenerBound(made, { ...wanted, nodeName: "node-b" }), false, "bound elsewhere")
  assert.equal(perVolumeListenerBound(made, { ...wanted, pvUid: "other" }), false, "another volume's")
  assert.equal(perVolumeListenerBound(made, { ...wanted, ports: [{ name: "http", port: 8081 }] }), false, "ports changed")
  assert.equal(perVolumeListenerBound({ ...made, metadata: { ...made.metadata, labels: { [BOUND_NODE_LABEL]: "node-a" } } }, wanted), false, "not in the node's watch")
})

test("the Pod a claim's Listener is bound to: the newest live scheduled one, deterministic on ties", () => {
  const old = pod("web-0-old", { nodeName: "node-a", created: "2026-01-01T00:00:00Z" })
  const moved = pod("web-0-new", { nodeName: "node-b", created: "2026-01-02T00:00:00Z" })
  assert.equal(bindingPodOf([old, moved])?.metadata.name, "web-0-new")
  assert.equal(bindingPodOf([moved, old])?.metadata.name, "web-0-new")
  assert.equal(bindingPodOf([old, pod("x", { nodeName: "node-b", created: "2026-01-03T00:00:00Z", deleting: true })])?.metadata.name, "web-0-old", "a Pod being deleted is no candidate")
  assert.equal(bindingPodOf([pod("unscheduled", { created: "2026-01-03T00:00:00Z" })]), undefined)
  const a = pod("a", { nodeName: "n", created: "t" })
  const b = pod("b", { nodeName: "n", created: "t" })
  assert.equal(bindingPodOf([a, b])?.metadata.name, bindingPodOf([b, a])?.metadata.name)
})

test("a claim's former per-volume Listener: owned by a volume (an earlier one) or by the Pod's workload, never a user's", () => {
  const owned = (...owners: Array<{ kind: string; uid: string }>) => ({ metadata: { ownerReferences: owners } })
  assert.equal(formerPerVolumeListener(owned({ kind: "PersistentVolume", uid: "old-pv" }), []), true)
  assert.equal(formerPerVolumeListener(owned({ kind: "StatefulSet", uid: "sts" }), ["sts"]), true)
  assert.equal(formerPerVolumeListener(owned({ kind: "StatefulSet", uid: "other" }), ["sts"]), false)
  assert.equal(formerPerVolumeListener({ metadata: {} }, ["sts"]), false)
})
