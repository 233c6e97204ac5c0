/** The waiting explanations' notes: what is missing and what, exactly, unblocks it. */
import { test } from "node:test"
import assert from "node:assert/strict"
import { explainVolumeWaiting } from "../../../../effects/shared/volumeWaiting.ts"
import { ListenerAddressesNotReady } from "../../../../effects/shared/volumeErrors.ts"

const nodeAddressWaiting = (acceptedAddressTypes: ListenerAddressesNotReady["acceptedAddressTypes"]) =>
  explainVolumeWaiting(new ListenerAddressesNotReady({
    namespace: "apps",
    listener: "web",
    awaiting: "NodeAddress",
    problem: "node node-1 has no usable address",
    acceptedAddressTypes
  }))

test("NodeAddressUnusable names the class's nodeAddressTypes in their order", () => {
  const explained = nodeAddressWaiting({ listenerClass: "external", types: ["InternalDNS", "ExternalIP", "ExternalDNS"], source: "nodeAddressTypes" })
  assert.equal(explained?.reason, "NodeAddressUnusable")
  assert.equal(
    explained?.note,
    "node node-1 has no usable address; give the Node an address of type InternalDNS, ExternalIP or ExternalDNS " +
      "(the spec.nodeAddressTypes of ListenerClass external, in this order), " +
      "set the Node's listeners.stackable.tech/node-address annotation, or reschedule the Pod to another node"
  )
})

test("NodeAddressUnusable with a single accepted type names only that type", () => {
  const explained = nodeAddressWaiting({ listenerClass: "internal", types: ["InternalIP"], source: "nodeAddressTypes" })
  assert.match(explained?.note ?? "", /give the Node an address of type InternalIP \(the spec.nodeAddressTypes of ListenerClass internal, in this order\)/)
  assert.doesNotMatch(explained?.note ?? "", /ExternalIP|Hostname/)
})

test("NodeAddressUnusable without nodeAddressTypes names the preferred kind's order", () => {
  const explained = nodeAddressWaiting({ listenerClass: "np", types: ["Hostname", "ExternalIP", "InternalIP"], source: "preferredAddressType" })
  assert.match(
    explained?.note ?? "",
    /give the Node an address of type Hostname, ExternalIP or InternalIP \(ListenerClass np sets no spec.nodeAddressTypes; in the order its preferredAddressType prefers\)/
  )
})
