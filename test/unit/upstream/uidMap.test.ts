import { test } from "node:test"
import assert from "node:assert/strict"
import { UidMap } from "../../upstream/replay.ts"

test("a recorded uid is replaced everywhere it appears, also without dashes as in a mount label", () => {
  const uids = new UidMap()
  uids.add("1111-2222", "aaaa-bbbb")
  const recorded = {
    metadata: { name: "pod-1111-2222", ownerReferences: [{ uid: "1111-2222" }], labels: { "listener.stackable.tech/mnt.11112222": "x" } },
    managedFields: [{ fieldsV1: { 'k:{"uid":"1111-2222"}': {} } }]
  }
  assert.deepEqual(uids.map(recorded), {
    metadata: { name: "pod-aaaa-bbbb", ownerReferences: [{ uid: "aaaa-bbbb" }], labels: { "listener.stackable.tech/mnt.aaaabbbb": "x" } },
    managedFields: [{ fieldsV1: { 'k:{"uid":"aaaa-bbbb"}': {} } }]
  })
})

test("a PersistentVolume keeps its recorded name, also where it is referred to by name", () => {
  const uids = new UidMap()
  uids.add("1111-2222", "aaaa-bbbb")
  const pv = {
    metadata: { name: "pvc-1111-2222" },
    spec: { csi: { volumeHandle: "pvc-1111-2222" }, claimRef: { name: "listener-0", uid: "1111-2222" } }
  }
  assert.deepEqual(uids.map(pv), {
    metadata: { name: "pvc-1111-2222" },
    spec: { csi: { volumeHandle: "pvc-1111-2222" }, claimRef: { name: "listener-0", uid: "aaaa-bbbb" } }
  })
  const listener = { metadata: { ownerReferences: [{ kind: "PersistentVolume", name: "pvc-1111-2222", uid: "1111-2222" }] } }
  assert.deepEqual(uids.map(listener), { metadata: { ownerReferences: [{ kind: "PersistentVolume", name: "pvc-1111-2222", uid: "aaaa-bbbb" }] } })
})

test("an object without uid cannot be mapped", () => {
  assert.throws(() => new UidMap().add(undefined, "x"), /an object without uid/)
})
