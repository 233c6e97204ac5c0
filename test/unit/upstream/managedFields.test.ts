import { test } from "node:test"
import assert from "node:assert/strict"
import { ownedPart } from "../../upstream/managedFields.ts"
import type { FieldSet } from "../../upstream/managedFields.ts"

// A Service as the upstream controller applies it, and the field set the API server recorded for it.
const service = {
  apiVersion: "v1",
  kind: "Service",
  metadata: {
    name: "listener-web-0",
    labels: { "app.kubernetes.io/name": "listener", other: "kept-out" },
    ownerReferences: [{ apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", name: "listener-web-0", uid: "u-1", controller: true }]
  },
  spec: {
    type: "NodePort",
    clusterIP: "10.0.0.7",
    selector: { "listener.stackable.tech/mnt.u1": "listener-web-0" },
    ports: [{ name: "http", port: 8080, protocol: "TCP", nodePort: 30080, targetPort: 8080 }],
    ipFamilies: ["IPv4"]
  }
}
const fields = {
  "f:metadata": { "f:labels": { ".": {}, "f:app.kubernetes.io/name": {} }, "f:ownerReferences": { ".": {}, 'k:{"uid":"u-1"}': {} } },
  "f:spec": {
    "f:type": {},
    "f:selector": {},
    "f:ports": { ".": {}, 'k:{"port":8080,"protocol":"TCP"}': { ".": {}, "f:name": {}, "f:port": {}, "f:protocol": {} } },
    "f:ipFamilies": { ".": {}, 'v:"IPv4"': {} }
  }
} satisfies FieldSet

test("the owned part of an object holds exactly the fields of the manager's field set", () => {
  assert.deepEqual(ownedPart(service, fields), {
    metadata: {
      labels: { "app.kubernetes.io/name": "listener" },
      ownerReferences: [service.metadata.ownerReferences[0]]
    },
    spec: {
      type: "NodePort",
      selector: { "listener.stackable.tech/mnt.u1": "listener-web-0" },
      ports: [{ name: "http", port: 8080, protocol: "TCP" }],
      ipFamilies: ["IPv4"]
    }
  })
})

test("a map whose set names only itself is owned empty; a list item by index is taken", () => {
  assert.deepEqual(ownedPart({ a: { x: 1 }, b: [5, 6] }, { "f:a": { ".": {} }, "f:b": { "i:1": {} } }), { a: {}, b: [6] })
})

test("empty annotations the manager applied (the server stores none) are replayed as an empty map", () => {
  assert.deepEqual(ownedPart({ metadata: { labels: { a: "1" } } }, { "f:metadata": { "f:annotations": {}, "f:labels": { "f:a": {} } } }), { metadata: { annotations: {}, labels: { a: "1" } } })
  assert.deepEqual(ownedPart({ spec: {} }, { "f:spec": { "f:publishNotReadyAddresses": {} } }), { spec: {} })
})
