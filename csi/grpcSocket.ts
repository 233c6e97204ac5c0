/**
 * A grpc-js server on a Unix socket for as long as a scope lives: a stale socket is
 * cleared first (never a live one), the socket is chmod 0600 once bound, and at scope
 * close the server shuts down gracefully (`tryShutdown`: no new calls, running ones
 * finish), then after a timeout forcibly (`forceShutdown`: running calls are cancelled,
 * which interrupts their handlers), and our own socket is removed. Shared by the CSI
 * endpoint and the kubelet plugin-registration endpoint.
 */
import { Server, ServerCredentials } from "@grpc/grpc-js"
import type { ServiceDefinition, UntypedServiceImplementation } from "@grpc/grpc-js"
import { Duration, Effect, Option } from "effect"
import type { Scope } from "effect"
import { chmod } from "node:fs/promises"
import { CsiServerError, inspectPath, ioError, removeOwnSocket, removeStaleSocket } from "./socket.ts"

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
}): Effect.Effect<void, CsiServerError, Scope.Scope> =>
  Effect.gen(function*() {
    const { socketPath, endpoint } = options
    yield* removeStaleSocket(socketPath, endpoint)
    const server = makeServer(options.services)
    const bound = yield* Effect.acquireRelease(
      Effect.andThen(bind(server, socketPath, endpoint), inspectPath(socketPath, endpoint)),
      (identity) =>
        Effect.andThen(
          shutdown(server, options.shutdownTimeout),
          Option.isSome(identity) ? removeOwnSocket(socketPath, endpoint, identity.value) : Effect.void
        ).pipe(Effect.andThen(Effect.logInfo(`${options.what} closed`).pipe(Effect.annotateLogs({ socket: socketPath }))))
    )
    if (Option.isNone(bound) || !bound.value.isSocket) {
      return yield* new CsiServerError({ reason: "Bind", endpoint, message: `no socket appeared at ${socketPath} after listening` })
    }
    yield* Effect.tryPromise({ try: () => chmod(socketPath, 0o600), catch: ioError(endpoint, `cannot chmod 0600 ${socketPath}`) })
  })
