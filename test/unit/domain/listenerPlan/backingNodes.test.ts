import { test } from "node:test"
import assert from "node:assert/strict"
import { backingNodeNames, pinnedNodesOf } from "../../../../domain/listenerPlan/index.ts"

const pv = (...terms: Array<Array<{ key: string; operator: string; values?: string[] }>>) => ({
  spec: { nodeAffinity: { required: { nodeSelectorTerms: terms.map((matchExpressions) => ({ matchExpressions })) } } }
})

test("PV node affinity: only key listeners.stackable.tech/hostname with operator In counts", () => {
  assert.deepEqual(pinnedNodesOf(pv([{ key: "listeners.stackable.tech/hostname", operator: "In", values: ["n1", "n2"] }])), ["n1", "n2"])
  assert.deepEqual(pinnedNodesOf(pv([{ key: "listeners.stackable.tech/hostname", operator: "NotIn", values: ["n1"] }])), [])
  assert.deepEqual(pinnedNodesOf(pv([{ key: "kubernetes.io/hostname", operator: "In", values: ["n1"] }])), [])
  assert.deepEqual(pinnedNodesOf({}), [])
  assert.deepEqual(pinnedNodesOf(pv([{ key: "listeners.stackable.tech/hostname", operator: "In" }])), [])
})

test("backing nodes: union of PV affinity nodes and endpoint nodes (ready or not), de-duplicated, sorted", () => {
  const volumes = [pv([{ key: "listeners.stackable.tech/hostname", operator: "In", values: ["n3"] }]), pv([{ key: "listeners.stackable.tech/hostname", operator: "In", values: ["n1"] }])]
  const slices = [
    { endpoints: [{ nodeName: "n2" }, { nodeName: "n1" }, {}] },
    { endpoints: [{ nodeName: "n4" }] },
    {}
  ]
  assert.deepEqual(backingNodeNames(volumes, slices), ["n1", "n2", "n3", "n4"])
  assert.deepEqual(backingNodeNames([], []), [])
})
