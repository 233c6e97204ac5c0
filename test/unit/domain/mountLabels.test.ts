// Which mount labels the volume binder sets on a Pod (domain/mountLabels.ts, docs/security.md).
import { test } from "node:test"
import assert from "node:assert/strict"
import { mountLabelKey } from "../../../domain/constants.ts"
import { missingMountLabels, sharedListenerNameOf } from "../../../domain/mountLabels.ts"

const DRIVER = "listeners.stackable.tech"
const UID_A = "0c1f8c9e-1b2a-4c3d-9e8f-7a6b5c4d3e2f"
const UID_B = "11111111-2222-3333-4444-555555555555"

const pv = (attributes: Record<string, string>, claimRef = { namespace: "ns", name: "data-web-0" }, driver = DRIVER) => ({
  metadata: { name: "pvc-1" },
  spec: { csi: { driver, volumeAttributes: attributes }, claimRef }
})

test("sharedListenerNameOf: the listener-name volume attribute of our driver's PV bound to the claim", () => {
  assert.equal(sharedListenerNameOf(pv({ "listeners.stackable.tech/listener-name": "kafka" }), DRIVER, { namespace: "ns", name: "data-web-0" }), "kafka")
})

test("sharedListenerNameOf: nothing for a per-volume volume, another driver, another claim or namespace", () => {
  const claim = { namespace: "ns", name: "data-web-0" }
  assert.equal(sharedListenerNameOf(pv({ "listeners.stackable.tech/listener-class": "lb" }), DRIVER, claim), undefined)
  assert.equal(sharedListenerNameOf(pv({ "listeners.stackable.tech/listener-name": "kafka" }, claim, "other.csi"), DRIVER, claim), undefined)
  assert.equal(sharedListenerNameOf(pv({ "listeners.stackable.tech/listener-name": "kafka" }, { namespace: "ns", name: "other" }), DRIVER, claim), undefined)
  assert.equal(sharedListenerNameOf(pv({ "listeners.stackable.tech/listener-name": "kafka" }, { namespace: "other", name: "data-web-0" }), DRIVER, claim), undefined)
  assert.equal(sharedListenerNameOf(pv({ "listeners.stackable.tech/listener-name": "" }), DRIVER, claim), undefined)
  assert.equal(sharedListenerNameOf({ metadata: {} }, DRIVER, claim), undefined)
})

test("missingMountLabels: every Listener the Pod mounts, keyed by uid without dashes, valued by name", () => {
  assert.deepEqual(missingMountLabels(undefined, [{ name: "kafka", uid: UID_A }, { name: "data-web-0", uid: UID_B }]), {
    [mountLabelKey(UID_A)]: "kafka",
    [mountLabelKey(UID_B)]: "data-web-0"
  })
})

test("missingMountLabels: nothing to write when all are present (a restart rewrites nothing)", () => {
  const labels = { app: "web", [mountLabelKey(UID_A)]: "kafka", [mountLabelKey(UID_B)]: "data-web-0" }
  assert.equal(missingMountLabels(labels, [{ name: "kafka", uid: UID_A }, { name: "data-web-0", uid: UID_B }]), undefined)
  assert.equal(missingMountLabels(labels, []), undefined)
})

test("missingMountLabels: only the missing or wrong ones; other labels (older versions', upstream's) are never removed", () => {
  const labels = { [mountLabelKey(UID_A)]: "kafka", [mountLabelKey(UID_B)]: "wrong", "listener.stackable.tech/mnt.deadbeef": "old" }
  assert.deepEqual(missingMountLabels(labels, [{ name: "kafka", uid: UID_A }, { name: "data-web-0", uid: UID_B }]), { [mountLabelKey(UID_B)]: "data-web-0" })
})
