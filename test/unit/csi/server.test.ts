/**
 * The CSI endpoint over a real Unix socket with a grpc-js client: socket lifecycle
 * (0600, stale socket replaced, live socket and non-socket files refused, removal at
 * shutdown), the error → status mapping on the wire, defects, UNIMPLEMENTED, cancellation
 * and call logging.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Client, credentials, status } from "@grpc/grpc-js"
import { Cause, Deferred, Duration, Effect, Exit, Fiber, Logger, References, Scope } from "effect"
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import type { Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeCsiClient } from "../../../csi/client.ts"
import type { CsiCallError } from "../../../csi/client.ts"
import { invalidRequest } from "../../../csi/errors.ts"
import { makeIdentityService } from "../../../csi/identity.ts"
import { serveCsi, socketPathOf } from "../../../csi/server.ts"
import type { CsiServerError, CsiService, NodeHandlers } from "../../../csi/server.ts"
import { KubeApiError } from "../../../effects/shared/KubeApi.ts"
import { PodVolumeNotFound } from "../../../effects/shared/volumeErrors.ts"
import { hangingHandler } from "./hangingHandler.ts"

const tempDir = (): string => mkdtempSync(join(tmpdir(), "csi-"))

const quiet = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) =>
  effect.pipe(Effect.scoped, Effect.provideService(References.MinimumLogLevel, "None"))

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>): Promise<A> => Effect.runPromise(quiet(effect))

const identity = makeIdentityService({ vendorVersion: "1.2.3", controllerService: false, readiness: Effect.void })

/** A Node service with only the publish handler, supplied by the test. */
const nodeWith = (publish: NodeHandlers["NodePublishVolume"]): CsiService => ({
  name: "Node",
  handlers: { NodePublishVolume: publish }
})

const serve = (dir: string, services: ReadonlyArray<CsiService>, shutdownTimeout?: Duration.Input) =>
  Effect.gen(function*() {
    return yield* serveCsi({ endpoint: join(dir, "csi.sock"), services: [yield* identity, ...services], shutdownTimeout })
  })

const callError = (effect: Effect.Effect<unknown, CsiCallError>) => Effect.flip(effect)

test("the socket is created with mode 0600, and removed when the scope closes", async () => {
  const dir = tempDir()
  const socket = join(dir, "csi.sock")
  await run(Effect.gen(function*() {
    const server = yield* serve(dir, [])
    assert.equal(server.socketPath, socket)
    const stats = lstatSync(socket)
    assert.ok(stats.isSocket())
    assert.equal(stats.mode & 0o777, 0o600)
    const client = yield* makeCsiClient(`unix://${socket}`)
    const info = yield* client.call("Identity", "GetPluginInfo", {})
    assert.equal(info.vendor_version, "1.2.3")
  }))
  assert.equal(existsSync(socket), false)
  rmSync(dir, { recursive: true })
})

test("a stale socket is replaced; a live one is refused", async () => {
  const dir = tempDir()
  const socket = join(dir, "csi.sock")
  const listen = (path: string) =>
    new Promise<Server>((resolve) => {
      const server = createServer()
      server.listen(path, () => resolve(server))
    })
  const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

  const live = await listen(socket)
  const refused = await run(Effect.flip(serve(dir, [])))
  assert.equal(refused.reason, "SocketInUse")
  assert.match(refused.message, /another process is serving on .*csi\.sock/)
  await close(live)

  // What a crashed plugin leaves behind: a socket file nobody listens on. (A clean close
  // unlinks its own name, so keep a second hard link to the socket inode.)
  const crashed = await listen(join(dir, "crashed.sock"))
  linkSync(join(dir, "crashed.sock"), socket)
  await close(crashed)
  assert.ok(lstatSync(socket).isSocket(), "a stale socket file is in place")
  await run(Effect.gen(function*() {
    yield* serve(dir, [])
    const client = yield* makeCsiClient(socket)
    assert.equal((yield* client.call("Identity", "GetPluginInfo", {})).name, "listeners.stackable.tech")
  }))
  assert.equal(existsSync(socket), false)
  rmSync(dir, { recursive: true })
})

test("takeOver: a second server replaces a live one without a moment with no one serving; the first leaves the socket at shutdown", async () => {
  const dir = tempDir()
  const socket = join(dir, "csi.sock")
  const serveAs = (vendorVersion: string) =>
    Effect.gen(function*() {
      const id = yield* makeIdentityService({ vendorVersion, controllerService: false, readiness: Effect.void })
      return yield* serveCsi({ endpoint: socket, services: [id], takeOver: true })
    })
  const versionAtSocket = Effect.gen(function*() {
    const client = yield* makeCsiClient(socket)
    return (yield* client.call("Identity", "GetPluginInfo", {})).vendor_version
  }).pipe(Effect.scoped)
  await run(Effect.gen(function*() {
    const oldScope = yield* Scope.make()
    yield* serveAs("old").pipe(Scope.provide(oldScope))
    assert.equal(yield* versionAtSocket, "old")
    // A client calling all along: every call is answered, by one plugin or the other.
    let calls = 0
    let failed = 0
    const caller = yield* Effect.forkChild(Effect.forever(Effect.gen(function*() {
      const answered = yield* Effect.result(versionAtSocket)
      calls++
      if (answered._tag === "Failure") failed++
      yield* Effect.sleep("2 millis")
    })))
    yield* Effect.sleep("300 millis")
    yield* serveAs("new")
    assert.equal(yield* versionAtSocket, "new", "the new plugin answers once it serves")
    yield* Effect.sleep("300 millis")
    yield* Scope.close(oldScope, Exit.void)
    assert.ok(lstatSync(socket).isSocket(), "the old plugin's shutdown left the new plugin's socket")
    assert.equal(yield* versionAtSocket, "new")
    yield* Fiber.interrupt(caller)
    assert.ok(calls >= 5, `the client called ${calls} times`)
    assert.equal(failed, 0, "no call failed during the handover")
    assert.equal(lstatSync(socket).mode & 0o777, 0o600)
  }))
  assert.equal(existsSync(socket), false, "the new plugin removes its own socket at shutdown")
  rmSync(dir, { recursive: true })
})

test("a non-socket file at the path is refused and left alone", async () => {
  const dir = tempDir()
  const socket = join(dir, "csi.sock")
  writeFileSync(socket, "precious")
  const error: CsiServerError = await run(Effect.flip(serve(dir, [])))
  assert.equal(error.reason, "NotASocket")
  assert.match(error.message, /refusing to replace .*csi\.sock: it is a regular file, not a socket/)
  assert.ok(lstatSync(socket).isFile())
  rmSync(socket)
  mkdirSync(socket)
  const dirError: CsiServerError = await run(Effect.flip(serve(dir, [])))
  assert.equal(dirError.reason, "NotASocket")
  assert.match(dirError.message, /it is a directory/)
  rmSync(dir, { recursive: true })
})

test("endpoints: unix:// and bare paths are accepted, other schemes and relative unix:// refused", async () => {
  const ok = (endpoint: string) => Effect.runPromise(socketPathOf(endpoint))
  const bad = (endpoint: string) => Effect.runPromise(Effect.flip(socketPathOf(endpoint)))
  assert.equal(await ok("/csi/csi.sock"), "/csi/csi.sock")
  assert.equal(await ok("unix:///csi/csi.sock"), "/csi/csi.sock")
  assert.equal(await ok("unix:/csi/csi.sock"), "/csi/csi.sock")
  assert.equal(await ok("csi.sock"), join(process.cwd(), "csi.sock"))
  for (const endpoint of ["tcp://127.0.0.1:10000", "unix://csi.sock", "", `/${"x".repeat(120)}.sock`, "/a\0b"]) {
    const error = await bad(endpoint)
    assert.equal(error.reason, "InvalidEndpoint", endpoint)
  }
})

test("a typed failure answers its status with the whole cause chain; a defect answers INTERNAL and the server keeps serving", async () => {
  const dir = tempDir()
  await run(Effect.gen(function*() {
    let calls = 0
    yield* serve(dir, [nodeWith(() => {
      calls++
      if (calls === 1) {
        return Effect.fail(
          new KubeApiError({
            reason: "NotFound",
            verb: "get",
            kind: "Pod",
            message: "pods \"web-0\" not found",
            cause: new Error("HTTP 404")
          })
        )
      }
      if (calls === 2) return Effect.fail(new PodVolumeNotFound({ namespace: "ns", pod: "web-0", claim: "data" }))
      if (calls === 3) return Effect.fail(invalidRequest("target_path", "is required"))
      if (calls === 4) return Effect.die(new Error("bug", { cause: new Error("deeper") }))
      if (calls === 5) throw new Error("thrown outside the effect")
      return Effect.succeed({})
    })])
    const client = yield* makeCsiClient(join(dir, "csi.sock"))
    const publish = client.call("Node", "NodePublishVolume", { volume_id: "v" })

    const notFound = yield* callError(publish)
    assert.equal(notFound.code, status.UNAVAILABLE)
    assert.equal(notFound.details, "pods \"web-0\" not found: HTTP 404")

    const noVolume = yield* callError(publish)
    assert.equal(noVolume.code, status.FAILED_PRECONDITION)
    assert.equal(noVolume.details, "Pod ns/web-0 has no persistentVolumeClaim or ephemeral volume for PVC data")

    const invalid = yield* callError(publish)
    assert.equal(invalid.code, status.INVALID_ARGUMENT)
    assert.equal(invalid.details, "target_path: is required")

    const died = yield* callError(publish)
    assert.equal(died.code, status.INTERNAL)
    assert.equal(died.details, "internal error: bug: deeper")

    const thrown = yield* callError(publish)
    assert.equal(thrown.code, status.INTERNAL)
    assert.match(thrown.details, /thrown outside the effect/)

    assert.deepEqual(yield* publish, {})
    assert.equal(calls, 6)
  }))
  rmSync(dir, { recursive: true })
})

test("RPCs without a handler, and RPCs the proto does not declare, answer UNIMPLEMENTED", async () => {
  const dir = tempDir()
  const socket = join(dir, "csi.sock")
  await run(Effect.gen(function*() {
    yield* serve(dir, [nodeWith(() => Effect.succeed({}))])
    const client = yield* makeCsiClient(socket)
    const unhandled = yield* callError(client.call("Node", "NodeGetInfo", {}))
    assert.equal(unhandled.code, status.UNIMPLEMENTED)
    // Controller is not served on this endpoint at all.
    const unserved = yield* callError(client.call("Controller", "ControllerGetCapabilities", {}))
    assert.equal(unserved.code, status.UNIMPLEMENTED)

    const raw = new Client(`unix://${socket}`, credentials.createInsecure())
    yield* Effect.addFinalizer(() => Effect.sync(() => raw.close()))
    const code = yield* Effect.callback<number>((resume) => {
      raw.makeUnaryRequest(
        "/csi.v1.Controller/ControllerPublishVolume",
        (bytes: Uint8Array) => Buffer.from(bytes),
        (bytes: Buffer) => bytes,
        new Uint8Array(0),
        (error) => resume(Effect.succeed(error?.code ?? status.OK))
      )
    })
    assert.equal(code, status.UNIMPLEMENTED)
  }))
  rmSync(dir, { recursive: true })
})

test("bytes that are not the request message answer INVALID_ARGUMENT naming the message; the handler never runs", async () => {
  const dir = tempDir()
  const socket = join(dir, "csi.sock")
  let calls = 0
  await run(Effect.gen(function*() {
    yield* serve(dir, [nodeWith(() => Effect.sync(() => (calls++, {})))])
    const raw = new Client(`unix://${socket}`, credentials.createInsecure())
    yield* Effect.addFinalizer(() => Effect.sync(() => raw.close()))
    const error = yield* Effect.callback<{ code: number; details: string }>((resume) => {
      raw.makeUnaryRequest(
        "/csi.v1.Node/NodePublishVolume",
        (bytes: Uint8Array) => Buffer.from(bytes),
        (bytes: Buffer) => bytes,
        new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]),
        (e) => resume(Effect.succeed({ code: e?.code ?? status.OK, details: e?.details ?? "" }))
      )
    })
    assert.equal(error.code, status.INVALID_ARGUMENT)
    assert.match(error.details, /^the request is not a valid csi\.v1\.NodePublishVolumeRequest: /u)
  }))
  assert.equal(calls, 0)
  rmSync(dir, { recursive: true })
})

test("a cancelled call interrupts its handler; shutdown cancels calls that outlive the timeout", async () => {
  const dir = tempDir()
  const socket = join(dir, "csi.sock")
  const hanging = hangingHandler
  // Cancelled by the client (deadline).
  const first = hanging()
  await run(Effect.gen(function*() {
    yield* serve(dir, [nodeWith(first.handler)])
    const client = yield* makeCsiClient(socket)
    // Connected first: a deadline that passes while the channel connects never reaches a handler.
    yield* client.call("Identity", "Probe", {})
    const error = yield* callError(client.call("Node", "NodePublishVolume", {}, { timeout: "500 millis" }))
    assert.equal(error.code, status.DEADLINE_EXCEEDED)
    assert.ok(yield* Deferred.isDone(first.started), "the call reached its handler before the deadline")
    yield* Deferred.await(first.interrupted)
  }))
  // Still running when the server shuts down: cancelled after the shutdown timeout.
  const second = hanging()
  const scope = Effect.runSync(Scope.make())
  const outcome = await Effect.runPromise(quiet(Effect.gen(function*() {
    yield* serve(dir, [nodeWith(second.handler)], "200 millis").pipe(Scope.provide(scope))
    const client = yield* makeCsiClient(socket)
    const fiber = yield* Effect.forkChild(Effect.exit(client.call("Node", "NodePublishVolume", {})))
    yield* Deferred.await(second.started)
    const began = Date.now()
    yield* Scope.close(scope, Exit.void)
    const elapsed = Date.now() - began
    const exit = yield* Fiber.join(fiber)
    yield* Deferred.await(second.interrupted)
    return { elapsed, exit }
  })))
  assert.ok(outcome.elapsed >= 150 && outcome.elapsed < 5000, `shutdown took ${outcome.elapsed} ms`)
  assert.ok(Exit.isFailure(outcome.exit))
  const failure = Cause.findError(outcome.exit.cause)
  assert.ok(failure._tag === "Success" && failure.success._tag === "CsiCallError")
  assert.notEqual(failure.success.code, status.OK)
  assert.equal(existsSync(socket), false)
  rmSync(dir, { recursive: true })
})

test("each call is logged with rpc, code and duration: debug when it succeeds, warn when it fails", async () => {
  const dir = tempDir()
  const entries: Array<{ level: string; message: unknown; annotations: Record<string, unknown> }> = []
  const capture = Logger.make((options) => {
    entries.push({
      level: options.logLevel,
      message: options.message,
      annotations: { ...options.fiber.getRef(References.CurrentLogAnnotations) }
    })
  })
  let fail = false
  await Effect.runPromise(Effect.gen(function*() {
    yield* serve(dir, [nodeWith(() => (fail ? Effect.fail(invalidRequest("volume_id", "is required")) : Effect.succeed({})))])
    const client = yield* makeCsiClient(join(dir, "csi.sock"))
    yield* client.call("Node", "NodePublishVolume", {})
    fail = true
    yield* Effect.flip(client.call("Node", "NodePublishVolume", {}))
  }).pipe(
    Effect.scoped,
    Effect.provideService(References.MinimumLogLevel, "Debug"),
    Effect.provideService(References.CurrentLoggers, new Set([capture]))
  ))
  const calls = entries.filter((entry) => entry.annotations["rpc"] === "/csi.v1.Node/NodePublishVolume" && "code" in entry.annotations)
  assert.equal(calls.length, 2)
  assert.equal(calls[0]!.level, "Debug")
  assert.equal(calls[0]!.annotations["code"], "OK")
  assert.equal(typeof calls[0]!.annotations["durationMs"], "number")
  assert.equal(calls[1]!.level, "Warn")
  assert.equal(calls[1]!.annotations["code"], "INVALID_ARGUMENT")
  assert.deepEqual(calls[1]!.message, ["CSI call failed", "volume_id: is required"])
  rmSync(dir, { recursive: true })
})
