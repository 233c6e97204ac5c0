import { test } from "node:test"
import assert from "node:assert/strict"
import {
  HOSTNAME_TEMPLATE_PATTERN,
  ordinalOf,
  renderHostname,
  templatedAddresses
} from "../../../../domain/listenerPlan/hostnameTemplate.ts"

const inputs = { listener: "listener-kafka-broker-2", namespace: "kafka", className: "external" }

test("placeholders are filled in: {listener}, {namespace}, {class}, {ordinal}", () => {
  assert.deepEqual(renderHostname("{listener}.{namespace}.kafka.example.com", inputs), { _tag: "Rendered", hostname: "listener-kafka-broker-2.kafka.kafka.example.com" })
  assert.deepEqual(renderHostname("broker-{ordinal}.{class}.example.com", inputs), { _tag: "Rendered", hostname: "broker-2.external.example.com" })
  assert.deepEqual(renderHostname("kafka.example.com", inputs), { _tag: "Rendered", hostname: "kafka.example.com" })
})

test("the ordinal is the number a StatefulSet volume's Listener name ends in", () => {
  assert.equal(ordinalOf("listener-kafka-broker-12"), "12")
  assert.equal(ordinalOf("web"), undefined)
  assert.equal(ordinalOf("web-0a"), undefined)
})

test("{ordinal} for a Listener without one is unusable, and says why", () => {
  const rendered = renderHostname("broker-{ordinal}.example.com", { ...inputs, listener: "web" })
  assert.equal(rendered._tag, "Unusable")
  assert.match(rendered._tag === "Unusable" ? rendered.problem : "", /uses \{ordinal\}, but Listener web is not a StatefulSet replica's/)
})

test("a rendering that is not a DNS name is unusable (too long a label, a leading '-', '..')", () => {
  for (const [template, listener] of [["{listener}.example.com", "a".repeat(64)], ["-{listener}.example.com", "web"], ["{listener}..example.com", "web"]] as const) {
    const rendered = renderHostname(template, { ...inputs, listener })
    assert.equal(rendered._tag, "Unusable", template)
    assert.match(rendered._tag === "Unusable" ? rendered.problem : "", /which is not a DNS name/)
  }
})

test("a template with characters or placeholders admission would refuse is unusable (objects stored before the CRD rule)", () => {
  for (const template of ["{pod}.example.com", "Web.example.com", "web_1.example.com", "{listener"]) {
    assert.equal(renderHostname(template, inputs)._tag, "Unusable", template)
    assert.ok(!new RegExp(HOSTNAME_TEMPLATE_PATTERN, "u").test(template), template)
  }
  assert.ok(new RegExp(HOSTNAME_TEMPLATE_PATTERN, "u").test("{listener}-{ordinal}.{namespace}.{class}.example.com"))
})

test("the hostname is published with the ports of the class's first address, and only once there is one", () => {
  assert.deepEqual(templatedAddresses("kafka-0.example.com", []), [])
  assert.deepEqual(
    templatedAddresses("kafka-0.example.com", [
      { address: "203.0.113.1", addressType: "IP", ports: { kafka: 31000 } },
      { address: "203.0.113.2", addressType: "IP", ports: { kafka: 31000 } }
    ]),
    [{ address: "kafka-0.example.com", addressType: "Hostname", ports: { kafka: 31000 } }]
  )
})
