/**
 * Label and field selector grammar of the in-memory API server, checked against what
 * the real parser (k8s.io/apimachinery pkg/labels, pkg/fields) accepts and rejects.
 */
import assert from "node:assert/strict"
import { test } from "node:test"
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from "../../../../adapters/memory/selectors.ts"
import type { LabelSelector } from "../../../../adapters/memory/selectors.ts"

const parse = (input: string): LabelSelector => {
  const result = parseLabelSelector(input)
  if ("error" in result) assert.fail(`${input}: ${result.error}`)
  return result
}

test("label selectors parse every operator of the grammar", () => {
  assert.deepEqual(parse(""), [])
  assert.deepEqual(parse("a=b, c==d ,e!=f"), [
    { key: "a", operator: "=", values: ["b"] },
    { key: "c", operator: "==", values: ["d"] },
    { key: "e", operator: "!=", values: ["f"] }
  ])
  assert.deepEqual(parse("x in (a, b),y notin (c),z,!w"), [
    { key: "x", operator: "in", values: ["a", "b"] },
    { key: "y", operator: "notin", values: ["c"] },
    { key: "z", operator: "exists", values: [] },
    { key: "w", operator: "!", values: [] }
  ])
  assert.deepEqual(parse("n>1,m<10"), [
    { key: "n", operator: "gt", values: ["1"] },
    { key: "m", operator: "lt", values: ["10"] }
  ])
  assert.deepEqual(parse("example.com/role=server,a="), [
    { key: "example.com/role", operator: "=", values: ["server"] },
    { key: "a", operator: "=", values: [""] }
  ])
})

test("label selectors reject malformed input with a message", () => {
  for (const bad of ["a in (b", "a=b=c", "a b", "Bad Key", "a in ()", "=a", "a,", "n>x", "a=-bad-", "a!b"]) {
    const result = parseLabelSelector(bad)
    assert.ok("error" in result, `${JSON.stringify(bad)} should not parse`)
  }
})

test("label matching: != and notin match objects without the label", () => {
  const labels = { app: "web", tier: "front", n: "5" }
  const cases: Array<[string, boolean]> = [
    ["app=web", true],
    ["app=db", false],
    ["app!=db", true],
    ["missing!=x", true],
    ["missing notin (x)", true],
    ["missing in (x)", false],
    ["tier in (front,back)", true],
    ["app,!missing", true],
    ["!app", false],
    ["n>4,n<6", true],
    ["n>5", false],
    ["app=web,tier=back", false]
  ]
  for (const [selector, expected] of cases) assert.equal(matchesLabels(parse(selector), labels), expected, selector)
  assert.equal(matchesLabels(parse("a!=b"), undefined), true)
})

test("field selectors parse =, == and != with escapes", () => {
  assert.deepEqual(parseFieldSelector("metadata.name=a,spec.nodeName!=b,status.phase==Running"), [
    { field: "metadata.name", operator: "=", value: "a" },
    { field: "spec.nodeName", operator: "!=", value: "b" },
    { field: "status.phase", operator: "=", value: "Running" }
  ])
  assert.deepEqual(parseFieldSelector("metadata.name=a\\,b"), [{ field: "metadata.name", operator: "=", value: "a,b" }])
  assert.ok("error" in parseFieldSelector("metadata.name"))
  const selector = parseFieldSelector("spec.nodeName=")
  assert.ok(!("error" in selector))
  assert.equal(matchesFields(selector, { "spec.nodeName": "" }), true)
  assert.equal(matchesFields(selector, { "spec.nodeName": "n" }), false)
})
