import { test } from "node:test"
import assert from "node:assert/strict"
import type { RequestTarget } from "../../../../effects/shared/KubeApi.ts"
import { parseWatchLine } from "../../../../adapters/http/watch.ts"
import { Kinds } from "../../../../domain/kinds.ts"

const target: RequestTarget = { verb: "watch", kind: Kinds.ConfigMap, namespace: "ns" }

test("an event line decodes to type and object", () => {
  const line = JSON.stringify({
    type: "MODIFIED",
    object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", resourceVersion: "7" }, data: { k: "v" } }
  })
  const parsed = parseWatchLine(target, line)
  assert.equal(parsed._tag, "Event")
  if (parsed._tag !== "Event") return
  assert.equal(parsed.event.type, "MODIFIED")
  assert.equal(parsed.event.object.metadata.resourceVersion, "7")
  assert.deepEqual(parsed.event.object["data"], { k: "v" })
})

test("a bookmark carries only a resourceVersion", () => {
  const parsed = parseWatchLine(target, `{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"12"}}}\r`)
  assert.equal(parsed._tag, "Event")
  if (parsed._tag === "Event") assert.equal(parsed.event.object.metadata.resourceVersion, "12")
})

test("blank lines are skipped", () => {
  assert.equal(parseWatchLine(target, "")._tag, "Blank")
  assert.equal(parseWatchLine(target, "  \r")._tag, "Blank")
})

test("an ERROR event with a 410 Status is Gone", () => {
  const parsed = parseWatchLine(target, JSON.stringify({
    type: "ERROR",
    object: { kind: "Status", apiVersion: "v1", status: "Failure", message: "too old resource version: 1 (42)", reason: "Expired", code: 410 }
  }))
  assert.equal(parsed._tag, "Failure")
  if (parsed._tag !== "Failure") return
  assert.equal(parsed.error.reason, "Gone")
  assert.equal(parsed.error.verb, "watch")
  assert.equal(parsed.error.namespace, "ns")
  assert.match(parsed.error.message, /too old resource version/)
})

test("other ERROR events map by their Status code; one without a Status is Internal", () => {
  const forbidden = parseWatchLine(target, JSON.stringify({ type: "ERROR", object: { kind: "Status", code: 403, reason: "Forbidden", message: "no" } }))
  assert.equal(forbidden._tag === "Failure" && forbidden.error.reason, "Forbidden")
  const bare = parseWatchLine(target, JSON.stringify({ type: "ERROR", object: {} }))
  assert.equal(bare._tag === "Failure" && bare.error.reason, "Internal")
})

test("garbage, unknown types and objects without metadata fail the watch as Internal", () => {
  for (const line of ["{not json", "[1,2]", `{"object":{}}`, `{"type":"RENAMED","object":{"metadata":{}}}`, `{"type":"ADDED","object":{"kind":"X"}}`]) {
    const parsed = parseWatchLine(target, line)
    assert.equal(parsed._tag, "Failure", line)
    if (parsed._tag === "Failure") assert.equal(parsed.error.reason, "Internal", line)
  }
})
