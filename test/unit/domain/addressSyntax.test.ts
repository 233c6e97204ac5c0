import { test } from "node:test"
import assert from "node:assert/strict"
import { addressProblem, classifyAddress, isIPv6 } from "../../../domain/addressSyntax.ts"

test("IPv4 and IPv6 addresses classify as IP", () => {
  for (const ip of ["10.0.0.1", "0.0.0.0", "255.255.255.255", "::1", "::", "fe80::1", "2001:db8::8a2e:370:7334",
    "2001:0db8:0000:0000:0000:ff00:0042:8329", "::ffff:192.0.2.1", "64:ff9b::192.0.2.33"]) {
    assert.equal(classifyAddress(ip), "IP", ip)
  }
})

test("DNS names classify as Hostname", () => {
  for (const name of ["localhost", "node-1", "a.b.c", "lb-123.eu-west-1.elb.amazonaws.com", "A.Example.COM", "1node.example"]) {
    assert.equal(classifyAddress(name), "Hostname", name)
  }
})

test("malformed IPs are neither IP nor Hostname", () => {
  for (const text of ["1.2.3.256", "1.2.3", "01.2.3.4.5", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "::ffff:1.2.3.999"]) {
    assert.equal(classifyAddress(text), undefined, text)
  }
  assert.equal(isIPv6("1:2:3:4:5:6:7::"), true)
})

test("hostile addresses are refused with a reason", () => {
  assert.equal(addressProblem(""), "is empty")
  assert.equal(addressProblem("../../x"), "contains '/'")
  assert.equal(addressProblem("a/b"), "contains '/'")
  assert.equal(addressProblem(".."), "is neither an IP address nor a DNS name")
  assert.equal(addressProblem("."), "is neither an IP address nor a DNS name")
  assert.equal(addressProblem("a\0b"), "contains a NUL character")
  assert.equal(addressProblem("-x.example"), "is neither an IP address nor a DNS name")
  assert.equal(addressProblem("x_y.example"), "is neither an IP address nor a DNS name")
  assert.equal(addressProblem(`${"a".repeat(64)}.example`), "is neither an IP address nor a DNS name")
  assert.equal(addressProblem(Array.from({ length: 50 }, () => "abcde").join(".")), "is longer than 253 characters")
  assert.equal(addressProblem("example.com"), undefined)
})
