import { test } from "node:test"
import assert from "node:assert/strict"
import { Schema } from "effect"
import { DecodeResult } from "../../../domain/decode.ts"
import { PodListeners } from "../../../domain/podListeners.ts"
import { assertIssue, expectFailure, expectSuccess, storedMeta } from "./support.ts"

const decode = DecodeResult.PodListeners

const podListenersWith = (spec: unknown) => ({
  apiVersion: "listeners.stackable.tech/v1alpha1",
  kind: "PodListeners",
  metadata: storedMeta("pod-1234", "default"),
  spec
})

test("listeners are keyed by volume name with scope and addresses", () => {
  const spec = {
    listeners: {
      listener: { scope: "Node", ingressAddresses: [{ address: "10.0.0.1", addressType: "IP", ports: { rpc: 32222 } }] },
      internal: { scope: "Cluster", ingressAddresses: [] }
    }
  }
  assert.deepEqual(expectSuccess(decode(podListenersWith(spec))).spec, spec)
})

test("missing or null addresses and listeners default to empty", () => {
  assert.deepEqual(expectSuccess(decode(podListenersWith({}))).spec, { listeners: {} })
  const spec = expectSuccess(decode(podListenersWith({ listeners: { a: { scope: "Cluster" }, b: { scope: "Node", ingressAddresses: null } } }))).spec
  assert.deepEqual(spec.listeners, { a: { scope: "Cluster", ingressAddresses: [] }, b: { scope: "Node", ingressAddresses: [] } })
})

test("a bad scope or address is refused by path", () => {
  assertIssue(expectFailure(decode(podListenersWith({ listeners: { "my-volume": { scope: "Zone" } } }))), 'spec.listeners["my-volume"].scope', 'Expected "Node" | "Cluster", got "Zone"')
  const badAddress = { listeners: { v: { scope: "Node", ingressAddresses: [{ address: "", addressType: "IP", ports: {} }] } } }
  assertIssue(expectFailure(decode(podListenersWith(badAddress))), "spec.listeners.v.ingressAddresses[0].address", "length of at least 1")
})

test("decode → encode → decode is the identity", () => {
  const decoded = expectSuccess(decode(podListenersWith({ listeners: { v: { scope: "Node" } } })))
  assert.deepEqual(expectSuccess(decode(JSON.parse(JSON.stringify(Schema.encodeSync(PodListeners)(decoded))))), decoded)
})
