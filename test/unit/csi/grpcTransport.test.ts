/**
 * The gRPC transport of the CSI endpoint (grpc-js with our generated codecs), spoken to
 * by a raw HTTP/2 client — for what a gRPC library never sends and for the exact shape of
 * answers — and by the grpc-js client of `makeCsiClient`: trailers-only errors, the 4 MiB
 * limit, compression, deadlines, cancellation and graceful-then-forced shutdown.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { status } from "@grpc/grpc-js"
import { Deferred, Effect, Exit, Fiber, References, Scope } from "effect"
import type { Duration } from "effect"
import { connect as connectHttp2 } from "node:http2"
import type { IncomingHttpHeaders } from "node:http2"
import { connect as connectSocket } from "node:net"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { makeCsiClient } from "../../../csi/client.ts"
import { csiMessage } from "../../../csi/grpc/codecs.ts"
import { MAX_MESSAGE_BYTES } from "../../../csi/grpcSocket.ts"
import { invalidRequest } from "../../../csi/errors.ts"
import { makeIdentityService } from "../../../csi/identity.ts"
import { serveCsi } from "../../../csi/server.ts"
import type { CsiService, NodeHandlers } from "../../../csi/server.ts"
import { withTempDir } from "../withTempDir.ts"
import { hangingHandler } from "./hangingHandler.ts"

const quiet = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>): Promise<A> =>
  Effect.runPromise(effect.pipe(Effect.scoped, Effect.provideService(References.MinimumLogLevel, "None")))

const identity = makeIdentityService({ vendorVersion: "1.2.3", controllerService: false, readiness: Effect.void })

const serve = (socket: string, publish: NodeHandlers["NodePublishVolume"], shutdownTimeout?: Duration.Input) =>
  Effect.gen(function*() {
    const node: CsiService = { name: "Node", handlers: { NodePublishVolume: publish } }
    return yield* serveCsi({ endpoint: socket, services: [yield* identity, node], shutdownTimeout })
  })

const hanging = hangingHandler

/** One message as gRPC frames it: compressed flag, 4-byte big-endian length, the bytes. */
const frame = (message: Uint8Array, compressed = false): Buffer => {
  const prefix = Buffer.alloc(5)
  prefix.writeUInt8(compressed ? 1 : 0, 0)
  prefix.writeUInt32BE(message.length, 1)
  return Buffer.concat([prefix, message])
}

interface RawAnswer {
  readonly headers: IncomingHttpHeaders
  readonly trailers: IncomingHttpHeaders | undefined
  readonly body: Buffer
}

/** One HTTP/2 request with exactly these headers and body. */
const raw = (socket: string, headers: Record<string, string>, body: Uint8Array): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const session = connectHttp2("http://localhost", { createConnection: () => connectSocket(socket) })
    session.on("error", reject)
    const stream = session.request({ ":method": "POST", "content-type": "application/grpc", te: "trailers", ...headers })
    let answerHeaders: IncomingHttpHeaders = {}
    let trailers: IncomingHttpHeaders | undefined
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
  code: Number(answer.trailers?.["grpc-status"] ?? answer.headers["grpc-status"]),
  message: decodeURIComponent(String(answer.trailers?.["grpc-message"] ?? answer.headers["grpc-message"] ?? ""))
})

const GET_INFO = "/csi.v1.Identity/GetPluginInfo"
const PUBLISH = "/csi.v1.Node/NodePublishVolume"
const emptyRequest = frame(new Uint8Array(0))

test("a call answers 200, the framed response and grpc-status 0 in the trailers; a failure is trailers-only", () =>
  withTempDir("grpc-", (dir) =>
    quiet(Effect.gen(function*() {
      const socket = join(dir, "csi.sock")
      yield* serve(socket, () => Effect.fail(invalidRequest("target_path", "is required ✓")))
      const ok = yield* Effect.promise(() => raw(socket, { ":path": GET_INFO }, emptyRequest))
      assert.equal(ok.headers[":status"], 200)
      assert.match(String(ok.headers["content-type"]), /^application\/grpc/u)
      assert.equal(ok.trailers?.["grpc-status"], "0")
      assert.equal(ok.body.readUInt8(0), 0, "not compressed")
      assert.equal(ok.body.readUInt32BE(1), ok.body.length - 5, "one whole message")
      assert.equal(csiMessage("GetPluginInfoResponse").decode(ok.body.subarray(5))["vendor_version"], "1.2.3")

      const failed = yield* Effect.promise(() => raw(socket, { ":path": PUBLISH }, emptyRequest))
      assert.equal(failed.headers[":status"], 200)
      assert.equal(failed.headers["grpc-status"], String(status.INVALID_ARGUMENT), "the status is in the one header block")
      assert.equal(statusOf(failed).message, "target_path: is required ✓", "percent-encoded UTF-8")
      assert.equal(failed.trailers, undefined, "no trailers follow")
      assert.equal(failed.body.length, 0, "no message")
    }))))

test("what a peer gets for requests the server cannot take; the server keeps serving", () =>
  withTempDir("grpc-", (dir) =>
    quiet(Effect.gen(function*() {
      const socket = join(dir, "csi.sock")
      let calls = 0
      yield* serve(socket, () => Effect.sync(() => (calls++, {})))
      const ask = (headers: Record<string, string>, body: Uint8Array) => Effect.promise(() => raw(socket, headers, body))

      const unknown = statusOf(yield* ask({ ":path": "/csi.v1.Node/NoSuchMethod" }, emptyRequest))
      assert.equal(unknown.code, status.UNIMPLEMENTED)
      assert.match(unknown.message, /NoSuchMethod/u)

      const tooBig = statusOf(yield* ask({ ":path": PUBLISH }, frame(new Uint8Array(MAX_MESSAGE_BYTES + 1))))
      assert.equal(tooBig.code, status.RESOURCE_EXHAUSTED)

      const snappy = statusOf(yield* ask({ ":path": PUBLISH, "grpc-encoding": "snappy" }, frame(new Uint8Array([1]), true)))
      assert.equal(snappy.code, status.UNIMPLEMENTED)
      assert.match(snappy.message, /snappy/u)

      // gzip is gRPC's standard compression: decompressed, decoded and served.
      const publish = csiMessage("NodePublishVolumeRequest").encode({ volume_id: "pvc-1" })
      const gzip = yield* ask({ ":path": PUBLISH, "grpc-encoding": "gzip" }, frame(gzipSync(publish), true))
      assert.equal(statusOf(gzip).code, status.OK)
      // ...and a gzip bomb is held to the same limit once decompressed.
      const bomb = statusOf(yield* ask({ ":path": PUBLISH, "grpc-encoding": "gzip" }, frame(gzipSync(new Uint8Array(MAX_MESSAGE_BYTES + 1)), true)))
      assert.equal(bomb.code, status.RESOURCE_EXHAUSTED)

      const garbage = statusOf(yield* ask({ ":path": PUBLISH }, frame(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]))))
      assert.equal(garbage.code, status.INVALID_ARGUMENT)
      assert.match(garbage.message, /^the request is not a valid csi\.v1\.NodePublishVolumeRequest: /u)

      // A unary call carries exactly one message; grpc-js refuses anything else as UNIMPLEMENTED.
      const cutShort = statusOf(yield* ask({ ":path": PUBLISH }, frame(publish).subarray(0, 7)))
      assert.equal(cutShort.code, status.UNIMPLEMENTED)
      assert.match(cutShort.message, /no request message/u)
      const twoMessages = statusOf(yield* ask({ ":path": PUBLISH }, Buffer.concat([frame(publish), frame(publish)])))
      assert.equal(twoMessages.code, status.UNIMPLEMENTED)
      assert.match(twoMessages.message, /a second request message/u)

      const notGrpc = yield* ask({ ":path": PUBLISH, "content-type": "application/json" }, frame(publish))
      // grpc-js answers HTTP 415. Deno's node:http2 server (Deno 2.9) sends that answer with
      // :status 200 instead; there the request is refused all the same (no grpc-status, no
      // message, no call), which is what a peer can rely on.
      assert.equal(notGrpc.headers[":status"], "Deno" in globalThis ? 200 : 415)
      assert.equal(notGrpc.headers["grpc-status"], undefined)
      assert.equal(notGrpc.body.length, 0)

      assert.equal(calls, 1, "only the good gzip call reached the handler")
      const good = yield* ask({ ":path": PUBLISH }, frame(publish))
      assert.equal(statusOf(good).code, status.OK)
      assert.equal(calls, 2)
    }))))

test("a call past its grpc-timeout answers DEADLINE_EXCEEDED and interrupts the handler", () =>
  withTempDir("grpc-", (dir) =>
    quiet(Effect.gen(function*() {
      const socket = join(dir, "csi.sock")
      const slow = hanging()
      yield* serve(socket, slow.handler)
      const began = Date.now()
      const answer = yield* Effect.promise(() => raw(socket, { ":path": PUBLISH, "grpc-timeout": "200m" }, emptyRequest))
      assert.equal(statusOf(answer).code, status.DEADLINE_EXCEEDED)
      assert.ok(Date.now() - began >= 150)
      yield* Deferred.await(slow.interrupted)
    }))))

test("the grpc-js client: its deadline, and interrupting its call, interrupt the server's handler", () =>
  withTempDir("grpc-", (dir) =>
    quiet(Effect.gen(function*() {
      const socket = join(dir, "csi.sock")
      const first = hanging()
      let next = first
      yield* serve(socket, () => next.handler())
      const client = yield* makeCsiClient(socket)
      // Connected first: a deadline that passes while the channel connects never reaches a handler.
      yield* client.call("Identity", "Probe", {})

      const late = yield* Effect.flip(client.call("Node", "NodePublishVolume", {}, { timeout: "500 millis" }))
      assert.equal(late.code, status.DEADLINE_EXCEEDED)
      assert.ok(yield* Deferred.isDone(first.started), "the call reached its handler before the deadline")
      yield* Deferred.await(first.interrupted)

      const second = hanging()
      next = second
      const fiber = yield* Effect.forkChild(client.call("Node", "NodePublishVolume", {}))
      yield* Deferred.await(second.started)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(second.interrupted)

      const [a, b] = yield* Effect.all([client.call("Identity", "Probe", {}), client.call("Identity", "GetPluginInfo", {})], { concurrency: 2 })
      assert.deepEqual(a, { ready: { value: true } })
      assert.equal(b.vendor_version, "1.2.3")
    }))))

test("a client with nobody at the socket gets UNAVAILABLE", () =>
  withTempDir("grpc-", (dir) =>
    quiet(Effect.gen(function*() {
      const client = yield* makeCsiClient(join(dir, "missing.sock"))
      const refused = yield* Effect.flip(client.call("Identity", "Probe", {}))
      assert.equal(refused.code, status.UNAVAILABLE)
      assert.match(refused.message, /^\/csi\.v1\.Identity\/Probe: UNAVAILABLE: /u)
    }))))

test("shutdown lets a running call finish and answer; past the timeout it cancels what is left", () =>
  withTempDir("grpc-", async (dir) => {
    const socket = join(dir, "csi.sock")
    const release = Effect.runSync(Deferred.make<void>())
    const started = Effect.runSync(Deferred.make<void>())
    const finishing = () => Deferred.succeed(started, undefined).pipe(Effect.andThen(Deferred.await(release)), Effect.as({}))
    const graceful = await quiet(Effect.gen(function*() {
      const scope = yield* Scope.make()
      yield* serve(socket, finishing, "5 seconds").pipe(Scope.provide(scope))
      const client = yield* makeCsiClient(socket)
      const call = yield* Effect.forkChild(Effect.exit(client.call("Node", "NodePublishVolume", {})))
      yield* Deferred.await(started)
      const closing = yield* Effect.forkChild(Scope.close(scope, Exit.void))
      yield* Effect.sleep("100 millis")
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(closing)
      return yield* Fiber.join(call)
    }))
    assert.ok(Exit.isSuccess(graceful), "the running call was answered")

    const stuck = hanging()
    const forced = await quiet(Effect.gen(function*() {
      const scope = yield* Scope.make()
      yield* serve(socket, stuck.handler, "200 millis").pipe(Scope.provide(scope))
      const client = yield* makeCsiClient(socket)
      const call = yield* Effect.forkChild(Effect.exit(client.call("Node", "NodePublishVolume", {})))
      yield* Deferred.await(stuck.started)
      const began = Date.now()
      yield* Scope.close(scope, Exit.void)
      const elapsed = Date.now() - began
      yield* Deferred.await(stuck.interrupted)
      return { elapsed, exit: yield* Fiber.join(call) }
    }))
    assert.ok(forced.elapsed >= 150 && forced.elapsed < 5000, `shutdown took ${forced.elapsed} ms`)
    assert.ok(Exit.isFailure(forced.exit), "the stuck call was cancelled")
  }))
