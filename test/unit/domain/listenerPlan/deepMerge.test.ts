import { test } from "node:test"
import assert from "node:assert/strict"
import { deepMerge } from "../../../../domain/listenerPlan/index.ts"

test("objects merge recursively; scalars and unnamed lists are replaced; null removes a key", () => {
  const base = { a: { b: 1, c: 2 }, list: [1, 2], keep: "x", drop: "y" }
  assert.deepEqual(deepMerge(base, { a: { c: 3, d: 4 }, list: [9], drop: null }), { a: { b: 1, c: 3, d: 4 }, list: [9], keep: "x" })
  assert.deepEqual(base, { a: { b: 1, c: 2 }, list: [1, 2], keep: "x", drop: "y" }, "inputs are not modified")
})

test("named lists merge entry by entry; new names are appended", () => {
  assert.deepEqual(
    deepMerge({ ports: [{ name: "a", port: 1 }, { name: "b", port: 2 }] }, { ports: [{ name: "b", nodePort: 30002 }, { name: "c", port: 3 }] }),
    { ports: [{ name: "a", port: 1 }, { name: "b", port: 2, nodePort: 30002 }, { name: "c", port: 3 }] }
  )
})

test("a list with unnamed entries replaces; an object replaces a scalar and vice versa", () => {
  assert.deepEqual(deepMerge({ l: [{ name: "a" }] }, { l: [{ port: 1 }] }), { l: [{ port: 1 }] })
  assert.deepEqual(deepMerge({ x: 1 }, { x: { y: 2 } }), { x: { y: 2 } })
  assert.deepEqual(deepMerge({ x: { y: 2 } }, { x: 1 }), { x: 1 })
})
