import { test } from "node:test"
import assert from "node:assert/strict"
import { Schema } from "effect"
import { DecodeResult } from "../../../domain/decode.ts"
import { ListenerClass } from "../../../domain/listenerClass.ts"
import { assertIssue, expectFailure, expectSuccess, storedMeta } from "./support.ts"

const decode = DecodeResult.ListenerClass

const classWith = (spec: unknown) => ({
  apiVersion: "listeners.stackable.tech/v1alpha1",
  kind: "ListenerClass",
  metadata: storedMeta("external-stable"),
  spec
})

test("a class with only serviceType gets every default", () => {
  const listenerClass = expectSuccess(decode(classWith({ serviceType: "NodePort" })))
  assert.deepEqual(listenerClass.spec, {
    serviceType: "NodePort",
    serviceAnnotations: {},
    loadBalancerAllocateNodePorts: true,
    preferredAddressType: "HostnameConservative",
    pinnedNodePorts: false,
    serviceOverrides: {}
  })
  assert.equal(listenerClass.metadata.namespace, undefined)
})

test("every field decodes as given", () => {
  const spec = {
    serviceType: "LoadBalancer",
    serviceAnnotations: { "service.beta.kubernetes.io/aws-load-balancer-internal": "true" },
    serviceExternalTrafficPolicy: "Local",
    loadBalancerClass: "service.k8s.aws/nlb",
    loadBalancerAllocateNodePorts: false,
    preferredAddressType: "IP",
    pinnedNodePorts: true,
    serviceOverrides: { spec: { ipFamilyPolicy: "PreferDualStack", ports: [{ name: "x", nodePort: 30000 }] } }
  }
  assert.deepEqual(expectSuccess(decode(classWith(spec))).spec, spec)
})

test("null means unset for the nullable fields and default for the defaulted ones", () => {
  const listenerClass = expectSuccess(decode(classWith({
    serviceType: "ClusterIP",
    serviceExternalTrafficPolicy: null,
    loadBalancerClass: null,
    preferredAddressType: null,
    pinnedNodePorts: null
  })))
  assert.equal("serviceExternalTrafficPolicy" in listenerClass.spec, false)
  assert.equal("loadBalancerClass" in listenerClass.spec, false)
  assert.equal(listenerClass.spec.preferredAddressType, "HostnameConservative")
  assert.equal(listenerClass.spec.pinnedNodePorts, false)
})

test("an unknown serviceType is refused, naming the field and the choices", () => {
  const error = expectFailure(decode(classWith({ serviceType: "Ingress" })))
  assert.equal(error.path, "spec.serviceType")
  assert.equal(error.objectName, "external-stable")
  assert.equal(error.namespace, undefined)
  assert.equal(error.message, 'ListenerClass external-stable: spec.serviceType: Expected "ClusterIP" | "NodePort" | "LoadBalancer", got "Ingress"')
})

test("a missing serviceType is refused", () => {
  assertIssue(expectFailure(decode(classWith({ pinnedNodePorts: true }))), "spec.serviceType", "Missing key")
})

test("bad enums and types elsewhere are refused by path", () => {
  assertIssue(expectFailure(decode(classWith({ serviceType: "NodePort", preferredAddressType: "ExternalDNS" }))), "spec.preferredAddressType", 'got "ExternalDNS"')
  assertIssue(expectFailure(decode(classWith({ serviceType: "NodePort", serviceExternalTrafficPolicy: "Nearest" }))), "spec.serviceExternalTrafficPolicy", 'Expected "Cluster" | "Local", got "Nearest"')
  assertIssue(expectFailure(decode(classWith({ serviceType: "NodePort", serviceAnnotations: { a: true } }))), "spec.serviceAnnotations.a", "Expected string, got true")
  assertIssue(expectFailure(decode(classWith({ serviceType: "NodePort", serviceOverrides: "spec: {}" }))), "spec.serviceOverrides", "Expected object")
  assertIssue(expectFailure(decode(classWith({ serviceType: "NodePort", pinnedNodePorts: "true" }))), "spec.pinnedNodePorts", 'Expected boolean, got "true"')
  assertIssue(expectFailure(decode(classWith(null))), "spec", "Expected object")
})

test("decode → encode → decode is the identity", () => {
  const decoded = expectSuccess(decode(classWith({ serviceType: "LoadBalancer", loadBalancerClass: "x", serviceOverrides: { a: [1] } })))
  const encoded = Schema.encodeSync(ListenerClass)(decoded)
  assert.equal(encoded.spec.preferredAddressType, "HostnameConservative")
  assert.deepEqual(expectSuccess(decode(JSON.parse(JSON.stringify(encoded)))), decoded)
})
