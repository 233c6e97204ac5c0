import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Schema } from "effect"
import { decodeListener, DecodeError, decodeResultWith, decodeWith, DecodeResult, formatPath } from "../../../domain/decode.ts"
import { assertIssue, expectFailure, storedMeta } from "./support.ts"

test("formatPath writes dotted names, indices and quoted odd keys", () => {
  assert.equal(formatPath([]), "")
  assert.equal(formatPath(["spec", "ports", 0, "port"]), "spec.ports[0].port")
  assert.equal(formatPath(["metadata", "annotations", "listeners.stackable.tech/listener-name"]), 'metadata.annotations["listeners.stackable.tech/listener-name"]')
  assert.equal(formatPath([{ key: "spec" }, { key: 2 }]), "spec[2]")
  assert.equal(formatPath([3, "a"]), "[3].a")
})

test("decodeListener fails in the error channel with a DecodeError carrying the context", async () => {
  const error = await Effect.runPromise(Effect.flip(decodeListener({
    metadata: storedMeta("web", "shop"),
    spec: { ports: [{ name: "http", port: 0 }] }
  })))
  assert.ok(error instanceof DecodeError)
  assert.equal(error._tag, "DecodeError")
  assert.equal(error.kind, "Listener")
  assert.equal(error.namespace, "shop")
  assert.equal(error.objectName, "web")
  assert.equal(error.path, "spec.ports[0].port")
  assert.deepEqual(error.issues, [{ path: "spec.ports[0].port", message: "Expected a value between 1 and 65535, got 0" }])
  assert.equal(error.message, "Listener shop/web: spec.ports[0].port: Expected a value between 1 and 65535, got 0")
})

test("a DecodeError is handled by its tag", async () => {
  const recovered = await Effect.runPromise(decodeListener("not an object").pipe(
    Effect.map(() => "decoded"),
    Effect.catchTag("DecodeError", (e) => Effect.succeed(`refused: ${e.message}`))
  ))
  assert.equal(recovered, 'refused: Listener: Expected object, got "not an object"')
})

test("a valid object succeeds through the Effect decoder", async () => {
  const listener = await Effect.runPromise(decodeListener({ metadata: storedMeta("web", "shop"), spec: {} }))
  assert.equal(listener.metadata.name, "web")
  assert.equal(listener.spec.publishNotReadyAddresses, true)
})

test("a wrong whole value has an empty path and no object name", () => {
  const error = expectFailure(DecodeResult.Listener(null))
  assert.equal(error.path, "")
  assert.equal(error.objectName, undefined)
  assertIssue(error, "", "Expected object, got null")
})

test("the object is named even when its namespace is missing", () => {
  const error = expectFailure(DecodeResult.Listener({ metadata: { name: "web", uid: "u" }, spec: {} }))
  assert.equal(error.objectName, "web")
  assert.ok(error.message.startsWith("Listener web: metadata.namespace: Missing key"), error.message)
})

test("long rejected inputs are cut short in messages", () => {
  const error = expectFailure(DecodeResult.Listener({ metadata: storedMeta("web", "d"), spec: { ports: { huge: "x".repeat(5000) } } }))
  const issue = error.issues[0]!
  assert.equal(issue.path, "spec.ports")
  assert.ok(issue.message.length <= 300, `${issue.message.length} characters`)
  assert.ok(issue.message.endsWith("…"))
})

test("decodeWith/decodeResultWith decode any Schema under a given subject name", async () => {
  const VolumeContext = Schema.Struct({ "csi.storage.k8s.io/pod.name": Schema.String })
  const error = expectFailure(decodeResultWith("CSI volume context", VolumeContext)({}))
  assert.equal(error.message, 'CSI volume context: ["csi.storage.k8s.io/pod.name"]: Missing key')
  const ok = await Effect.runPromise(decodeWith("CSI volume context", VolumeContext)({ "csi.storage.k8s.io/pod.name": "p" }))
  assert.deepEqual(ok, { "csi.storage.k8s.io/pod.name": "p" })
})
