import { test } from "node:test"
import assert from "node:assert/strict"
import { errorFromBadArgument, errorFromResponse, errorFromTransport, reasonOf, RequestTimedOut } from "../../../../adapters/http/errors.ts"
import type { RequestTarget } from "../../../../effects/shared/KubeApi.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApiError } from "../../../../effects/shared/KubeApi.ts"

const target: RequestTarget = { verb: "create", kind: Kinds.Listener, namespace: "ns", name: "l1" }

test("HTTP status codes map to reasons", () => {
  const table: ReadonlyArray<readonly [number, string | undefined, string]> = [
    [400, undefined, "BadRequest"],
    [401, undefined, "Unauthorized"],
    [403, "Forbidden", "Forbidden"],
    [404, "NotFound", "NotFound"],
    [409, "Conflict", "Conflict"],
    [409, "AlreadyExists", "AlreadyExists"],
    [410, "Expired", "Gone"],
    [422, "Invalid", "Invalid"],
    [429, "TooManyRequests", "TooManyRequests"],
    [500, "InternalError", "Internal"],
    [500, "ServerTimeout", "Timeout"],
    [502, undefined, "Unavailable"],
    [503, "ServiceUnavailable", "Unavailable"],
    [504, "Timeout", "Timeout"],
    [405, "MethodNotAllowed", "BadRequest"],
    [415, "UnsupportedMediaType", "BadRequest"],
    [507, undefined, "Internal"]
  ]
  for (const [code, reason, expected] of table) assert.equal(reasonOf(code, reason), expected, `${code} ${reason}`)
})

test("a Status body gives message, code and causes; the error names verb, kind, namespace and name", () => {
  const error = errorFromResponse(target, 422, {
    kind: "Status",
    apiVersion: "v1",
    status: "Failure",
    message: "Listener.listeners.stackable.tech \"l1\" is invalid: spec.ports[0].port: Invalid value: 0",
    reason: "Invalid",
    details: {
      name: "l1",
      causes: [{ reason: "FieldValueInvalid", message: "Invalid value: 0", field: "spec.ports[0].port" }, {
        type: "FieldValueDuplicate",
        message: "Duplicate value",
        field: "spec.ports[1].name"
      }]
    },
    code: 422
  })
  assert.ok(error instanceof KubeApiError)
  assert.equal(error.reason, "Invalid")
  assert.equal(error.status, 422)
  assert.equal(error.verb, "create")
  assert.equal(error.kind, "Listener")
  assert.equal(error.namespace, "ns")
  assert.equal(error.objectName, "l1")
  assert.match(error.message, /^create Listener ns\/l1: .*spec\.ports\[0\]\.port/)
  assert.deepEqual(error.causes, [
    { field: "spec.ports[0].port", reason: "FieldValueInvalid", message: "Invalid value: 0" },
    { field: "spec.ports[1].name", reason: "FieldValueDuplicate", message: "Duplicate value" }
  ])
})

test("409 AlreadyExists and 409 Conflict are told apart by the Status reason", () => {
  assert.equal(errorFromResponse(target, 409, { kind: "Status", reason: "AlreadyExists", code: 409 }).reason, "AlreadyExists")
  assert.equal(errorFromResponse(target, 409, { kind: "Status", reason: "Conflict", code: 409 }).reason, "Conflict")
})

test("a watch ERROR event (HTTP 200) takes its code from the Status: 410 Expired is Gone", () => {
  const error = errorFromResponse({ verb: "watch", kind: Kinds.Pod }, 200, {
    kind: "Status",
    status: "Failure",
    message: "too old resource version: 1 (200)",
    reason: "Expired",
    code: 410
  })
  assert.equal(error.reason, "Gone")
  assert.equal(error.status, 410)
  assert.match(error.message, /^watch Pod: too old resource version/)
})

test("a non-Status body keeps the HTTP status and shows the text", () => {
  const error = errorFromResponse(target, 503, "upstream connect error\n")
  assert.equal(error.reason, "Unavailable")
  assert.match(error.message, /upstream connect error$/)
  assert.equal(errorFromResponse(target, 500, undefined).message, "create Listener ns/l1: HTTP 500")
})

test("transport failures are Unavailable with the cause kept; our own timeout is Timeout", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6443"), { code: "ECONNREFUSED" })
  const error = errorFromTransport(target, refused)
  assert.equal(error.reason, "Unavailable")
  assert.equal(error.cause, refused)
  assert.match(error.message, /ECONNREFUSED 127\.0\.0\.1:6443/)
  const hangUp = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })
  assert.match(errorFromTransport(target, hangUp).message, /ECONNRESET socket hang up/)
  assert.equal(errorFromTransport(target, new RequestTimedOut(1000)).reason, "Timeout")
})

test("a refused argument is BadRequest naming the field", () => {
  const error = errorFromBadArgument({ verb: "get", kind: Kinds.Pod, name: "p" }, "metadata.namespace is required", "metadata.namespace")
  assert.equal(error.reason, "BadRequest")
  assert.equal(error.causes?.[0]?.field, "metadata.namespace")
  assert.equal(error.message, "get Pod p: metadata.namespace is required")
})
