import { test } from "node:test"
import assert from "node:assert/strict"
import {
  decodeGrpcMessage,
  encodeGrpcMessage,
  formatGrpcTimeout,
  frameMessage,
  parseGrpcTimeout,
  unframeSingleMessage
} from "../../../../csi/wire/framing.ts"
import { GrpcStatus, grpcStatusName, grpcStatusOf } from "../../../../csi/wire/grpcStatus.ts"

test("a framed message has a 0 flag, its big-endian length, and unframes to itself", () => {
  const message = new Uint8Array([1, 2, 3, 250])
  const framed = frameMessage(message)
  assert.deepEqual([...framed], [0, 0, 0, 0, 4, 1, 2, 3, 250])
  const unframed = unframeSingleMessage(framed)
  assert.ok(unframed.ok)
  assert.deepEqual([...unframed.message], [...message])
  const empty = unframeSingleMessage(frameMessage(new Uint8Array(0)))
  assert.ok(empty.ok && empty.message.length === 0, "an empty message (all defaults) is a message")
})

test("a body that is not exactly one uncompressed message is refused, saying why", () => {
  const cases: Array<[number[], "compressed" | "malformed", RegExp]> = [
    [[], "malformed", /has no message/],
    [[0, 0, 0], "malformed", /inside a message prefix/],
    [[0, 0, 0, 0, 5, 1, 2], "malformed", /cut short \(2 of 5 bytes\)/],
    [[0, 0, 0, 0, 1, 9, 0], "malformed", /exactly one message/],
    [[1, 0, 0, 0, 1, 9], "compressed", /not supported/],
    [[7, 0, 0, 0, 1, 9], "malformed", /invalid compressed flag 7/]
  ]
  for (const [bytes, problem, detail] of cases) {
    const result = unframeSingleMessage(new Uint8Array(bytes))
    assert.ok(!result.ok, `${bytes} is refused`)
    assert.equal(result.problem, problem)
    assert.match(result.detail, detail)
  }
})

test("grpc-timeout: every unit, at most 8 digits; anything else is no deadline", () => {
  assert.equal(parseGrpcTimeout("300m"), 300)
  assert.equal(parseGrpcTimeout("2S"), 2000)
  assert.equal(parseGrpcTimeout("1M"), 60_000)
  assert.equal(parseGrpcTimeout("1H"), 3_600_000)
  assert.equal(parseGrpcTimeout("5000u"), 5)
  assert.equal(parseGrpcTimeout("7000000n"), 7)
  for (const bad of [undefined, "", "10", "m", "123456789m", "-1m", "1.5S", "10s"]) assert.equal(parseGrpcTimeout(bad), undefined, String(bad))
  assert.equal(formatGrpcTimeout(250.2), "251m")
  assert.equal(formatGrpcTimeout(0), "1m")
  assert.equal(parseGrpcTimeout(formatGrpcTimeout(1e12)), 99_999_999)
})

test("grpc-message is percent-encoded UTF-8 and decodes back", () => {
  const message = "target_path: \"/x/ü\" is 100% wrong\n\ttab ✓ 🚀"
  const encoded = encodeGrpcMessage(message)
  assert.match(encoded, /^[\x20-\x7e]*$/u, "only printable ASCII on the wire")
  assert.ok(encoded.includes("100%25 wrong"))
  assert.equal(decodeGrpcMessage(encoded), message)
  assert.equal(decodeGrpcMessage("plain"), "plain")
  assert.equal(decodeGrpcMessage("bad %zz escape %4"), "bad %zz escape %4", "a malformed escape is kept as sent")
  assert.equal(decodeGrpcMessage("unescaped ü 🚀 %C3%BC"), "unescaped ü 🚀 ü", "characters a peer did not escape survive")
})

test("status codes: names for logs, and a peer's header value read defensively", () => {
  assert.equal(grpcStatusName(GrpcStatus.INVALID_ARGUMENT), "INVALID_ARGUMENT")
  assert.equal(grpcStatusName(99), "99")
  assert.equal(grpcStatusOf("14"), GrpcStatus.UNAVAILABLE)
  for (const bad of [undefined, "", " ", "17", "abc", "1.5"]) assert.equal(grpcStatusOf(bad), GrpcStatus.UNKNOWN, String(bad))
})
