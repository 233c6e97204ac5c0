/**
 * The gRPC transport on node:http2, spoken to by a raw HTTP/2 client (for what a gRPC
 * library never sends) and by our own client: answers, statuses, limits, deadlines,
 * cancellation and shutdown.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { connect as connectHttp2 } from "node:http2"
import type { IncomingHttpHeaders } from "node:http2"
import { connect as connectSocket } from "node:net"
import { join } from "node:path"
import { frameMessage, MAX_MESSAGE_BYTES } from "../../../../csi/wire/framing.ts"
import { GrpcStatus } from "../../../../csi/wire/grpcStatus.ts"
import { makeUnaryClient } from "../../../../csi/wire/unaryClient.ts"
import { makeUnaryServer } from "../../../../csi/wire/unaryServer.ts"
import type { UnaryCall, UnaryRoute } from "../../../../csi/wire/unaryServer.ts"
import { withTempDir } from "../../withTempDir.ts"

/** A client result with its bytes as a plain array, for comparisons. */
const plain = (result: { readonly ok: boolean; readonly message?: Uint8Array }) => ({ ...result, ...(result.message === undefined ? {} : { message: [...result.message] }) })

const echo: UnaryRoute = async (call) => ({ ok: true, message: call.message })

/** A route that waits until its call is aborted, then tells why. */
const hanging = () => {
  const aborted: unknown[] = []
  let started = 0
  const route: UnaryRoute = (call: UnaryCall) =>
    new Promise((resolve) => {
      started++
      call.signal.addEventListener("abort", () => {
        aborted.push(call.signal.reason)
        resolve({ ok: true, message: new Uint8Array(0) })
      })
    })
  return { route, aborted, started: () => started }
}

const withServer = (routes: Record<string, UnaryRoute>, body: (socket: string) => Promise<void>) =>
  withTempDir("unary-server-", async (dir) => {
    const socket = join(dir, "grpc.sock")
    const server = makeUnaryServer(new Map(Object.entries(routes)))
    await server.listen(socket)
    try {
      await body(socket)
    } finally {
      await server.shutdown(1000)
    }
  })

interface RawAnswer {
  readonly headers: IncomingHttpHeaders
  readonly trailers: IncomingHttpHeaders
  readonly body: Buffer
}

/** One HTTP/2 request with exactly these headers and body, as bytes. */
const raw = (socket: string, headers: Record<string, string>, body: Uint8Array): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const session = connectHttp2("http://localhost", { createConnection: () => connectSocket(socket) })
    session.on("error", reject)
    const stream = session.request({ ":method": "POST", "content-type": "application/grpc", te: "trailers", ...headers })
    let answerHeaders: IncomingHttpHeaders = {}
    let trailers: IncomingHttpHeaders = {}
    const chunks: Buffer[] = []
    stream.on("response", (h) => (answerHeaders = h))
    stream.on("trailers", (t) => (trailers = t))
    stream.on("data", (chunk: Buffer) => chunks.push(chunk))
    stream.on("error", () => undefined)
    stream.on("close", () => {
      session.close()
      resolve({ headers: answerHeaders, trailers, body: Buffer.concat(chunks) })
    })
    stream.end(body)
  })

const statusOf = (answer: RawAnswer) => ({
  code: Number(answer.trailers["grpc-status"] ?? answer.headers["grpc-status"]),
  message: decodeURIComponent(String(answer.trailers["grpc-message"] ?? answer.headers["grpc-message"] ?? ""))
})

test("a unary call: one framed message in, 200 with the framed answer and grpc-status 0 in the trailers", () =>
  withServer({ "/t.S/Echo": echo }, async (socket) => {
    const answer = await raw(socket, { ":path": "/t.S/Echo" }, frameMessage(new Uint8Array([7, 8, 9])))
    assert.equal(answer.headers[":status"], 200)
    assert.equal(answer.headers["content-type"], "application/grpc")
    assert.deepEqual([...answer.body], [0, 0, 0, 0, 3, 7, 8, 9])
    assert.equal(answer.trailers["grpc-status"], "0")
  }))

test("what a gRPC peer gets for requests the server cannot take", () =>
  withServer({ "/t.S/Echo": echo }, async (socket) => {
    const unknown = await raw(socket, { ":path": "/t.S/Nope" }, frameMessage(new Uint8Array(0)))
    assert.equal(statusOf(unknown).code, GrpcStatus.UNIMPLEMENTED)
    assert.match(statusOf(unknown).message, /method \/t\.S\/Nope is not implemented/)

    const gzip = await raw(socket, { ":path": "/t.S/Echo", "grpc-encoding": "gzip" }, frameMessage(new Uint8Array(0)))
    assert.equal(statusOf(gzip).code, GrpcStatus.UNIMPLEMENTED)
    assert.match(statusOf(gzip).message, /encoding gzip is not supported/)

    const compressed = await raw(socket, { ":path": "/t.S/Echo" }, new Uint8Array([1, 0, 0, 0, 1, 5]))
    assert.equal(statusOf(compressed).code, GrpcStatus.UNIMPLEMENTED)

    const twoMessages = await raw(socket, { ":path": "/t.S/Echo" }, Buffer.concat([frameMessage(new Uint8Array([1])), frameMessage(new Uint8Array([2]))]))
    assert.equal(statusOf(twoMessages).code, GrpcStatus.INVALID_ARGUMENT)
    assert.match(statusOf(twoMessages).message, /exactly one message/)

    const tooBig = await raw(socket, { ":path": "/t.S/Echo" }, frameMessage(new Uint8Array(MAX_MESSAGE_BYTES + 1)))
    assert.equal(statusOf(tooBig).code, GrpcStatus.RESOURCE_EXHAUSTED)

    const notGrpc = await raw(socket, { ":path": "/t.S/Echo", "content-type": "application/json" }, new Uint8Array(0))
    assert.equal(notGrpc.headers[":status"], 415)
    // (Not GET: an HTTP/2 client ends a GET with its headers, so it can carry no body.)
    const put = await raw(socket, { ":path": "/t.S/Echo", ":method": "PUT" }, new Uint8Array(0))
    assert.equal(put.headers[":status"], 405)

    // And the server still answers a good call after all of that.
    const good = await raw(socket, { ":path": "/t.S/Echo" }, frameMessage(new Uint8Array([4])))
    assert.equal(good.trailers["grpc-status"], "0")
  }))

test("a call past its grpc-timeout answers DEADLINE_EXCEEDED and aborts the route", () => {
  const slow = hanging()
  return withServer({ "/t.S/Slow": slow.route }, async (socket) => {
    const began = Date.now()
    const answer = await raw(socket, { ":path": "/t.S/Slow", "grpc-timeout": "200m" }, frameMessage(new Uint8Array(0)))
    assert.equal(statusOf(answer).code, GrpcStatus.DEADLINE_EXCEEDED)
    assert.ok(Date.now() - began >= 150)
    assert.equal(slow.aborted.length, 1)
    assert.match(String(slow.aborted[0]), /deadline/)
  })
})

test("our client: answers, statuses, its own deadline and caller cancellation abort the server's route", () => {
  const slow = hanging()
  const failing: UnaryRoute = async () => ({ ok: false, code: GrpcStatus.FAILED_PRECONDITION, details: "naming: the field ✓" })
  return withServer({ "/t.S/Echo": echo, "/t.S/Slow": slow.route, "/t.S/Fail": failing }, async (socket) => {
    const client = makeUnaryClient(socket)
    try {
      assert.deepEqual(plain(await client.call("/t.S/Echo", new Uint8Array([5, 6]))), { ok: true, message: [5, 6] })
      assert.deepEqual(await client.call("/t.S/Fail", new Uint8Array(0)), { ok: false, code: GrpcStatus.FAILED_PRECONDITION, details: "naming: the field ✓" })
      const [a, b, c] = await Promise.all([1, 2, 3].map((n) => client.call("/t.S/Echo", new Uint8Array([n]))))
      assert.deepEqual([a, b, c].map((r) => r!.ok && r!.message[0]), [1, 2, 3], "concurrent calls share one connection")

      const late = await client.call("/t.S/Slow", new Uint8Array(0), { timeoutMs: 150 })
      assert.equal(late.ok ? GrpcStatus.OK : late.code, GrpcStatus.DEADLINE_EXCEEDED)
      const controller = new AbortController()
      const pending = client.call("/t.S/Slow", new Uint8Array(0), { signal: controller.signal })
      while (slow.started() < 2) await new Promise((r) => setTimeout(r, 5))
      controller.abort()
      const cancelled = await pending
      assert.equal(cancelled.ok ? GrpcStatus.OK : cancelled.code, GrpcStatus.CANCELLED)
      while (slow.aborted.length < 2) await new Promise((r) => setTimeout(r, 5))
      assert.equal(slow.aborted.length, 2, "both the deadline and the cancellation reached the route")
    } finally {
      client.close()
    }
    const nobody = makeUnaryClient(join(socket, "..", "missing.sock"))
    const refused = await nobody.call("/t.S/Echo", new Uint8Array(0))
    assert.equal(refused.ok ? GrpcStatus.OK : refused.code, GrpcStatus.UNAVAILABLE)
    nobody.close()
  })
})

test("shutdown lets a running call finish; past the timeout it cancels what is left", () =>
  withTempDir("unary-shutdown-", async (dir) => {
    const socket = join(dir, "grpc.sock")
    const slow = hanging()
    let release: (() => void) | undefined
    const finishing: UnaryRoute = () => new Promise((resolve) => (release = () => resolve({ ok: true, message: new Uint8Array([1]) })))
    const server = makeUnaryServer(new Map([["/t.S/Slow", slow.route], ["/t.S/Finish", finishing]]))
    await server.listen(socket)
    const client = makeUnaryClient(socket)
    const finished = client.call("/t.S/Finish", new Uint8Array(0))
    while (release === undefined) await new Promise((r) => setTimeout(r, 5))
    const stopping = server.shutdown(5000)
    setTimeout(() => release!(), 100)
    assert.equal(await stopping, true, "graceful: the running call finished in time")
    assert.deepEqual(plain(await finished), { ok: true, message: [1] })
    client.close()

    const again = makeUnaryServer(new Map([["/t.S/Slow", slow.route]]))
    const socket2 = join(dir, "grpc2.sock")
    await again.listen(socket2)
    const client2 = makeUnaryClient(socket2)
    const stuck = client2.call("/t.S/Slow", new Uint8Array(0))
    while (slow.started() < 1) await new Promise((r) => setTimeout(r, 5))
    const began = Date.now()
    assert.equal(await again.shutdown(200), false, "not graceful: the call outlived the timeout")
    assert.ok(Date.now() - began >= 150)
    const outcome = await stuck
    assert.equal(outcome.ok, false)
    assert.equal(slow.aborted.length, 1, "the route was cancelled")
    client2.close()
  }))
