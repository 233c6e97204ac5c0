import { test } from "node:test"
import assert from "node:assert/strict"
import {
  fieldsPresentIn,
  foldManagedFields,
  isUpstreamFieldManager,
  ownedFieldNames,
  predecessorEntries,
  unionFieldsV1
} from "../../../domain/managedFields.ts"

const ours = "listeners.stackable.tech_listener"
const upstream = "listeners.stackable.tech/listener"
const options = { manager: ours, isPredecessor: isUpstreamFieldManager }

test("upstream's field managers are recognised, ours are not", () => {
  assert.equal(isUpstreamFieldManager(upstream), true)
  assert.equal(isUpstreamFieldManager("listeners.stackable.tech/listeners.stackable.tech_listener"), true)
  assert.equal(isUpstreamFieldManager(ours), false)
  assert.equal(isUpstreamFieldManager("listeners.stackable.tech_csi-node"), false)
  assert.equal(isUpstreamFieldManager("kube-controller-manager"), false)
  assert.equal(isUpstreamFieldManager(undefined), false)
})

test("the union of two fieldsV1 tries holds every path of both", () => {
  const a = { "f:metadata": { "f:labels": { "f:a": {} } }, "f:spec": { "f:ports": { 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:name": {} } } } }
  const b = { "f:metadata": { "f:labels": { "f:b": {} } }, "f:spec": { "f:type": {} } }
  assert.deepEqual(unionFieldsV1(a, b), {
    "f:metadata": { "f:labels": { "f:a": {}, "f:b": {} } },
    "f:spec": { "f:ports": { 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:name": {} } }, "f:type": {} }
  })
  assert.deepEqual(unionFieldsV1(a, undefined), a)
})

test("folding hands every predecessor entry of the subresource to our Apply entry and keeps everyone else's", () => {
  const entries = [
    { manager: upstream, operation: "Apply", apiVersion: "v1", time: "t1", fieldsType: "FieldsV1", fieldsV1: { "f:spec": { "f:type": {} } } },
    { manager: "listeners.stackable.tech/other", operation: "Update", apiVersion: "v1", time: "t2", fieldsType: "FieldsV1", fieldsV1: { "f:metadata": { "f:labels": { "f:x": {} } } } },
    { manager: ours, operation: "Apply", apiVersion: "v1", time: "t3", fieldsType: "FieldsV1", fieldsV1: { "f:spec": { "f:selector": {} } } },
    { manager: "kubectl-edit", operation: "Update", apiVersion: "v1", time: "t4", fieldsType: "FieldsV1", fieldsV1: { "f:metadata": { "f:annotations": { "f:user": {} } } } },
    { manager: upstream, operation: "Apply", apiVersion: "v1", time: "t5", fieldsType: "FieldsV1", fieldsV1: { "f:status": {} }, subresource: "status" }
  ]
  assert.equal(predecessorEntries(entries, options).length, 2)
  const folded = foldManagedFields(entries, options)
  assert.deepEqual(folded.map((e) => `${e.manager}/${e.operation}/${e.subresource ?? ""}`), [
    `${ours}/Apply/`,
    "kubectl-edit/Update/",
    `${upstream}/Apply/status`
  ])
  assert.deepEqual(folded[0]!.fieldsV1, { "f:metadata": { "f:labels": { "f:x": {} } }, "f:spec": { "f:selector": {}, "f:type": {} } })
  // The status subresource is folded on its own.
  const status = foldManagedFields(entries, { ...options, subresource: "status" })
  assert.deepEqual(status.find((e) => e.manager === ours && e.subresource === "status")?.fieldsV1, { "f:status": {} })
  assert.equal(status.some((e) => e.manager === upstream && e.subresource === "status"), false)
  assert.equal(status.some((e) => e.manager === upstream && e.subresource === undefined), true, "the main resource's entry is not part of a status fold")
})

test("folding changes nothing when no predecessor owns anything", () => {
  const entries = [{ manager: ours, operation: "Apply", fieldsV1: { "f:spec": {} } }]
  assert.equal(foldManagedFields(entries, options), entries)
})

test("ownedFieldNames lists the keys owned below a path", () => {
  const fields = { "f:metadata": { "f:labels": { ".": {}, "f:a": {}, "f:b": {} } } }
  assert.deepEqual(ownedFieldNames(fields, ["metadata", "labels"]), ["a", "b"])
  assert.deepEqual(ownedFieldNames(fields, ["metadata", "annotations"]), [])
})

test("fieldsPresentIn follows fields, list keys and set values", () => {
  const service = { spec: { ports: [{ name: "http", port: 80, protocol: "TCP" }], type: "NodePort", finalizers: ["a"] } }
  assert.equal(fieldsPresentIn({ "f:spec": { "f:type": {}, "f:ports": { 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:name": {} } } } }, service), true)
  assert.equal(fieldsPresentIn({ "f:spec": { "f:ports": { 'k:{"port":81,"protocol":"TCP"}': {} } } }, service), false)
  assert.equal(fieldsPresentIn({ "f:spec": { "f:externalTrafficPolicy": {} } }, service), false)
  assert.equal(fieldsPresentIn({ "f:spec": { "f:finalizers": { 'v:"a"': {} } } }, service), true)
  assert.equal(fieldsPresentIn({ "f:spec": { "f:finalizers": { 'v:"b"': {} } } }, service), false)
})
