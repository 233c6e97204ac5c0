import { test } from "node:test"
import assert from "node:assert/strict"
import {
  fieldPathText,
  fieldsInUse,
  refusalMessage,
  removedFieldsOf,
  removedFieldsOfCrd,
  setsField,
  versionProblemsOf
} from "../../../domain/crdCompatibility.ts"
import type { CrdShape, SchemaNode } from "../../../domain/crdCompatibility.ts"
import { crdManifests } from "../../../k8s/crds.ts"

const schema = (spec: SchemaNode, status?: SchemaNode): SchemaNode => ({
  properties: { spec, ...(status !== undefined ? { status } : {}) }
})

const crd = (versions: ReadonlyArray<{ name: string; served?: boolean; storage?: boolean; schema?: SchemaNode }>, storedVersions?: string[]): CrdShape => ({
  metadata: { name: "things.example.com" },
  spec: {
    versions: versions.map((v) => ({
      name: v.name,
      served: v.served ?? true,
      storage: v.storage ?? false,
      schema: { openAPIV3Schema: v.schema ?? schema({ properties: {} }) }
    }))
  },
  ...(storedVersions !== undefined ? { status: { storedVersions } } : {})
})

const ports: SchemaNode = { items: { properties: { name: {}, port: {}, appProtocol: {} } } }

test("this build's CRDs against themselves: no removed field, no version problem", () => {
  for (const own of crdManifests()) {
    const live = { ...own, status: { storedVersions: own.spec.versions.filter((v) => v.storage).map((v) => v.name) } }
    assert.deepEqual(removedFieldsOfCrd(live, own), [], own.metadata.name)
    assert.deepEqual(versionProblemsOf(live, own), [], own.metadata.name)
  }
})

test("an added optional field is no removal; dropping it again is one", () => {
  const [own] = crdManifests()
  const extended = structuredClone(own!) as typeof own & { spec: { versions: Array<{ schema: { openAPIV3Schema: SchemaNode } }> } }
  const specNode = extended.spec.versions[0]!.schema.openAPIV3Schema.properties!["spec"] as { properties: Record<string, SchemaNode> }
  specNode.properties["upgradeNote"] = {}
  assert.deepEqual(removedFieldsOfCrd(own!, extended), [])
  assert.deepEqual(removedFieldsOfCrd(extended, own!).map((r) => [r.version, fieldPathText(r.path)]), [["v1alpha1", "spec.upgradeNote"]])
})

test("removed fields are found in objects, array items and map values, outermost only", () => {
  const live = schema({
    properties: {
      ports,
      labels: { additionalProperties: { properties: { value: {}, note: {} } } },
      gone: { properties: { deep: {} } }
    }
  }, { properties: { conditions: { items: { properties: { type: {} } } } } })
  const desired = schema({
    properties: {
      ports: { items: { properties: { name: {}, port: {} } } },
      labels: { additionalProperties: { properties: { value: {} } } }
    }
  })
  assert.deepEqual(removedFieldsOf(live, desired).map(fieldPathText).sort(), [
    "spec.gone",
    "spec.labels{}.note",
    "spec.ports[].appProtocol",
    "status"
  ])
})

test("below x-kubernetes-preserve-unknown-fields nothing is pruned, so nothing counts as removed", () => {
  const live = schema({ properties: { overrides: { properties: { a: {}, b: {} } } } })
  const desired = schema({ properties: { overrides: { "x-kubernetes-preserve-unknown-fields": true } } })
  assert.deepEqual(removedFieldsOf(live, desired), [])
})

test("setsField follows properties, every array item and every map value", () => {
  const object = { spec: { ports: [{ name: "a" }, { name: "b", appProtocol: "h2" }], labels: { x: { value: "1" } }, empty: null } }
  assert.equal(setsField(object, ["spec", "ports", "[]", "appProtocol"]), true)
  assert.equal(setsField(object, ["spec", "ports", "[]", "port"]), false)
  assert.equal(setsField(object, ["spec", "labels", "{}", "value"]), true)
  assert.equal(setsField(object, ["spec", "labels", "{}", "note"]), false)
  assert.equal(setsField(object, ["spec", "empty"]), true, "an explicit null is a value the object sets")
  assert.equal(setsField(object, ["spec", "missing"]), false)
  assert.equal(setsField(object, ["spec", "ports", "name"]), false, "an array has no named property")
  assert.equal(setsField({ spec: { ports: [] } }, ["spec", "ports", "[]", "name"]), false)
})

test("a version the live CRD serves, and a stored version, may not be dropped; a version it does not serve may", () => {
  const live = crd([{ name: "v1alpha1", storage: true }, { name: "v1beta1" }, { name: "v0", served: false }], ["v0", "v1alpha1"])
  const desired = crd([{ name: "v1alpha1", storage: true }])
  assert.deepEqual(versionProblemsOf(live, desired), [
    { _tag: "ServedVersionDropped", version: "v1beta1" },
    { _tag: "StoredVersionDropped", version: "v0" }
  ])
  const unserved = crd([{ name: "v1alpha1", storage: true }, { name: "v1beta1", served: false }])
  assert.deepEqual(versionProblemsOf(live, unserved).map((p) => p._tag), ["ServedVersionDropped", "StoredVersionDropped"])
  assert.deepEqual(versionProblemsOf(crd([{ name: "v1alpha1" }, { name: "v0", served: false }], ["v1alpha1"]), desired), [])
})

test("added versions and a changed storage version are no problem while every version stays", () => {
  const live = crd([{ name: "v1alpha1", storage: true }], ["v1alpha1"])
  const desired = crd([{ name: "v1alpha1" }, { name: "v1beta1", storage: true }])
  assert.deepEqual(versionProblemsOf(live, desired), [])
})

test("a removed field is a problem only while some object sets it; the message names objects, field and what to do", () => {
  const removed = [{ version: "v1alpha1", path: ["spec", "upgradeNote"] }]
  const objects = [
    { metadata: { name: "a", namespace: "ns" }, spec: {} },
    { metadata: { name: "b", namespace: "ns" }, spec: { upgradeNote: "x" } },
    { metadata: { name: "c", namespace: "ns" }, spec: { upgradeNote: "" } },
    { metadata: { name: "d", namespace: "ns" }, spec: { upgradeNote: "y" } },
    { metadata: { name: "e", namespace: "ns" }, spec: { upgradeNote: "z" } }
  ]
  assert.deepEqual(fieldsInUse(removed, () => objects.slice(0, 1)), [])
  assert.deepEqual(fieldsInUse(removed, () => undefined), [])
  const problems = fieldsInUse(removed, () => objects)
  assert.deepEqual(problems, [{ _tag: "FieldInUse", version: "v1alpha1", path: ["spec", "upgradeNote"], count: 4, examples: ["ns/b", "ns/c", "ns/d"] }])
  const message = refusalMessage("things.example.com", problems)
  assert.match(message, /CRD things\.example\.com was not updated: the live CRD is kept/u)
  assert.match(message, /spec\.upgradeNote \(version v1alpha1\) is not in this build's schema but 4 object\(s\) set it \(ns\/b, ns\/c, ns\/d, …\)/u)
  assert.match(message, /Remove the field from those objects/u)
  assert.match(message, /crds\.manage=false \(MANAGE_CRDS=false\)/u)
})

test("the refusal of dropped versions says how to stop serving and how to migrate stored objects", () => {
  const message = refusalMessage("things.example.com", [
    { _tag: "ServedVersionDropped", version: "v1beta1" },
    { _tag: "StoredVersionDropped", version: "v0" }
  ])
  assert.match(message, /\(1\) the live CRD serves version v1beta1, which this build does not/u)
  assert.match(message, /kubectl edit crd things\.example\.com: served: false/u)
  assert.match(message, /\(2\) objects of things\.example\.com are stored in version v0/u)
  assert.match(message, /--subresource=status/u)
})
