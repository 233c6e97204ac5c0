/**
 * JSON merge patch and JSON patch as the API server applies them (evanphx/json-patch):
 * results, and which failures are malformed (400) versus not applicable (422).
 */
import assert from "node:assert/strict"
import { test } from "node:test"
import { jsonPatch, mergePatch } from "../../../../adapters/memory/patches.ts"

const doc = { metadata: { name: "a", labels: { x: "1" } }, list: [1, 2, 3] }

test("merge patch merges objects, deletes with null and replaces lists", () => {
  assert.deepEqual(mergePatch(doc, { metadata: { labels: { x: null, y: "2" } }, list: [9] }), {
    _tag: "Patched",
    value: { metadata: { name: "a", labels: { y: "2" } }, list: [9] }
  })
  assert.equal(mergePatch(doc, [1]). _tag, "BadRequest")
})

test("JSON patch applies add, remove, replace, move, copy and test in order", () => {
  const result = jsonPatch(doc, [
    { op: "test", path: "/metadata/name", value: "a" },
    { op: "add", path: "/list/-", value: 4 },
    { op: "add", path: "/list/0", value: 0 },
    { op: "remove", path: "/list/1" },
    { op: "replace", path: "/metadata/name", value: "b" },
    { op: "copy", from: "/metadata/name", path: "/metadata/copy" },
    { op: "move", from: "/metadata/labels/x", path: "/metadata/labels/z" },
    { op: "add", path: "/metadata/labels/a~1b", value: "escaped" }
  ])
  assert.deepEqual(result, {
    _tag: "Patched",
    value: { metadata: { name: "b", copy: "b", labels: { z: "1", "a/b": "escaped" } }, list: [0, 2, 3, 4] }
  })
  assert.deepEqual(doc.list, [1, 2, 3], "the input is not mutated")
})

test("JSON patch failures: malformed is BadRequest, inapplicable is Unprocessable", () => {
  assert.equal(jsonPatch(doc, { op: "add" })._tag, "BadRequest")
  assert.equal(jsonPatch(doc, [{ path: "/a" }])._tag, "BadRequest")
  const failedTest = jsonPatch(doc, [{ op: "test", path: "/metadata/name", value: "other" }])
  assert.deepEqual(failedTest, { _tag: "Unprocessable", message: "testing value /metadata/name failed: test failed" })
  assert.equal(jsonPatch(doc, [{ op: "remove", path: "/metadata/missing" }])._tag, "Unprocessable")
  assert.equal(jsonPatch(doc, [{ op: "replace", path: "/missing", value: 1 }])._tag, "Unprocessable")
  assert.equal(jsonPatch(doc, [{ op: "add", path: "/missing/deep", value: 1 }])._tag, "Unprocessable")
  assert.equal(jsonPatch(doc, [{ op: "add", path: "/list/7", value: 1 }])._tag, "Unprocessable")
  assert.equal(jsonPatch(doc, [{ op: "test", path: "/metadata/absent", value: null }])._tag, "Patched", "a missing value equals null")
})
