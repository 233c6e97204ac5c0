/**
 * A grpc-js server on a Unix socket for as long as a scope lives: a stale socket is
 * cleared first (never a live one), the socket is chmod 0600 once bound, and at scope
 * close the server shuts down gracefully (`tryShutdown`: no new calls, running ones
 * finish), then after a timeout forcibly (`forceShutdown`: running calls are cancelled,
 * which interrupts their handlers), and our own socket is removed. Shared by the CSI
 * endpoint and the kubelet plugin-registration endpoint.
 *
 * `takeOver`: a live socket is replaced instead of refused — the node DaemonSet's surge
 * update starts the new plugin beside the old one on each node. The new server listens on
 * a temporary name beside the socket and renames it over the socket's path, so every
 * connection made at any instant reaches one of the two plugins (never no one); the old
 * one, at its shutdown, leaves the socket alone because it is no longer its own.
 */
import { Server, ServerCredentials } from "@grpc/grpc-js"
import type { ServiceDefinition, UntypedServiceImplementation } from "@grpc/grpc-js"
import { Duration, Effect, Option } from "effect"
import type { Scope } from "effect"
import { chmod, rename, unlink } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { CsiServerError, inspectPath, ioError, isServed, removeOwnSocket, removeStaleSocket } from "./socket.ts"

/** gRPC's default limit for a received message, which a larger request meets as RESOURCE_EXHAUSTED. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024

export interface GrpcService {
  readonly definition: ServiceDefinition
  readonly implementation: UntypedServiceImplementation
}

const makeServer = (services: ReadonlyArray<GrpcService>): Server => {
  const server = new Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    // Per-call bookkeeping for an admin service we do not serve.
    "grpc.enable_channelz": 0
  })
  for (const service of services) server.addService(service.definition, service.implementation)
  return server
}

const bind = (server: Server, path: string, endpoint: string): Effect.Effect<void, CsiServerError> =>
  Effect.callback<void, CsiServerError>((resume) => {
    server.bindAsync(`unix://${path}`, ServerCredentials.createInsecure(), (error) => {
      resume(
        error === null
          ? Effect.void
          : Effect.fail(new CsiServerError({ reason: "Bind", endpoint, message: `cannot listen on ${path}: ${error.message}`, cause: error }))
      )
    })
  })

/** Graceful first; after `timeout`, cancel whatever is still running. */
const shutdown = (server: Server, timeout: Duration.Duration): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    server.tryShutdown(() => resume(Effect.void))
  }).pipe(
    // Runs as a finalizer (uninterruptible): the wait itself must yield to the timeout.
    Effect.interruptible,
    Effect.timeoutOption(timeout),
    Effect.flatMap((graceful) =>
      Option.isSome(graceful)
        ? Effect.void
        : Effect.andThen(
          Effect.logWarning("calls were still running at shutdown; cancelled them").pipe(
            Effect.annotateLogs({ timeout: Duration.format(timeout) })
          ),
          Effect.sync(() => server.forceShutdown())
        )
    )
  )

/** Serve `services` on `socketPath` until the scope closes; succeeds once the socket is bound and 0600. */
export const serveOnSocket = (options: {
  readonly services: ReadonlyArray<GrpcService>
  readonly socketPath: string
  /** The setting the path came from, for error messages. */
  readonly endpoint: string
  readonly shutdownTimeout: Duration.Duration
  /** How logs name this endpoint, e.g. "CSI endpoint". */
  readonly what: string
  /** Replace a live socket (a predecessor still serving) instead of refusing it. */
  readonly takeOver?: boolean | undefined
}): Effect.Effect<void, CsiServerError, Scope.Scope> =>
  Effect.gen(function*() {
    const { socketPath, endpoint } = options
    const existing = yield* inspectPath(socketPath, endpoint)
    const takingOver = options.takeOver === true && Option.isSome(existing) && existing.value.isSocket && (yield* isServed(socketPath))
    if (!takingOver) yield* removeStaleSocket(socketPath, endpoint)
    const server = makeServer(options.services)
    // Always listen on a temporary name and rename it into place: Node (libuv) unlinks the
    // name a server listened on when it closes, which must not be the path a successor
    // took over. Short: a Unix socket path has at most 103 bytes.
    const temporary = join(dirname(socketPath), `.${process.pid}.${basename(socketPath)}`)
    const listen = Effect.gen(function*() {
      yield* Effect.tryPromise({ try: () => unlink(temporary).catch(() => undefined), catch: ioError(endpoint, `cannot remove ${temporary}`) })
      yield* bind(server, temporary, endpoint)
      yield* Effect.tryPromise({ try: () => chmod(temporary, 0o600), catch: ioError(endpoint, `cannot chmod 0600 ${temporary}`) })
      yield* Effect.tryPromise({ try: () => rename(temporary, socketPath), catch: ioError(endpoint, `cannot move ${temporary} over ${socketPath}`) })
      if (takingOver) {
        yield* Effect.logInfo(`took the ${options.what} over from the process still serving it`).pipe(Effect.annotateLogs({ socket: socketPath }))
      }
    })
    const bound = yield* Effect.acquireRelease(
      Effect.andThen(listen, inspectPath(socketPath, endpoint)),
      (identity) =>
        Effect.andThen(
          shutdown(server, options.shutdownTimeout),
          Option.isSome(identity) ? removeOwnSocket(socketPath, endpoint, identity.value) : Effect.void
        ).pipe(Effect.andThen(Effect.logInfo(`${options.what} closed`).pipe(Effect.annotateLogs({ socket: socketPath }))))
    )
    if (Option.isNone(bound) || !bound.value.isSocket) {
      return yield* new CsiServerError({ reason: "Bind", endpoint, message: `no socket appeared at ${socketPath} after listening` })
    }
  })
