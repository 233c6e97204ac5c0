// The least-privilege comparison (test/envtest/rbacCoverage.ts) used by test/e2e/security.test.ts.
import { test } from "node:test"
import assert from "node:assert/strict"
import { coverage, permissionsOf } from "../envtest/rbacCoverage.ts"
import type { AuditEvent } from "../envtest/controlPlane.ts"

const call = (username: string, verb: string, resource: string, extra: Partial<NonNullable<AuditEvent["objectRef"]>> = {}, decision = "allow"): AuditEvent => ({
  verb,
  user: { username },
  objectRef: { resource, ...extra },
  annotations: { "authorization.k8s.io/decision": decision },
  requestReceivedTimestamp: "2026-01-01T00:00:00.000000Z",
  stageTimestamp: "2026-01-01T00:00:00.000000Z"
})

test("a server-side apply that created its object used create as well as patch", () => {
  const created = { ...call("me", "patch", "listeners", { apiGroup: "l.io" }), responseStatus: { code: 201 } }
  const rules = [{ apiGroups: ["l.io"], resources: ["listeners"], verbs: ["create", "patch"] }]
  assert.deepEqual(coverage("me", rules, [created]).unused, [])
  assert.deepEqual(Object.fromEntries(coverage("me", [{ ...rules[0]!, verbs: ["patch"] }], [created]).outside), { "create l.io/listeners": 1 })
})

test("rules expand into single permissions", () => {
  assert.deepEqual([...permissionsOf([{ apiGroups: ["", "x.io"], resources: ["pods"], verbs: ["get", "patch"] }])].sort(), [
    "get core/pods", "get x.io/pods", "patch core/pods", "patch x.io/pods"
  ])
})

test("calls outside the rules, forbidden calls, used and unused rules; other users and self-reviews do not count", () => {
  const rules = [
    { apiGroups: [""], resources: ["pods"], verbs: ["get", "patch"] },
    { apiGroups: ["l.io"], resources: ["listeners", "listeners/status"], verbs: ["patch"] }
  ]
  const result = coverage("me", rules, [
    call("me", "get", "pods"),
    call("me", "get", "pods"),
    call("me", "patch", "listeners", { apiGroup: "l.io", subresource: "status" }),
    call("me", "delete", "pods"),
    call("me", "patch", "pods", {}, "forbid"),
    call("me", "create", "selfsubjectreviews", { apiGroup: "authentication.k8s.io" }),
    call("someone-else", "delete", "services"),
    { ...call("me", "get", "x"), objectRef: undefined }
  ])
  assert.deepEqual(Object.fromEntries(result.used), { "get core/pods": 2, "patch l.io/listeners/status": 1 })
  assert.deepEqual(Object.fromEntries(result.outside), { "delete core/pods": 1, "patch core/pods": 1 })
  assert.deepEqual(result.unused, ["patch core/pods", "patch l.io/listeners"])
})
