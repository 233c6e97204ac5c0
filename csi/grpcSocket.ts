/**
 * A gRPC server on a Unix socket for as long as a scope lives: a stale socket is cleared
 * first (never a live one), the socket is chmod 0600 once bound, and at scope close the
 * server shuts down gracefully (running calls cancelled after a timeout) and our own socket
 * is removed. Shared by the CSI endpoint and the kubelet plugin-registration endpoint.
 */
import { Duration, Effect, Option } from "effect"
import type { Scope } from "effect"
import { chmod } from "node:fs/promises"
import { CsiServerError, inspectPath, ioError, removeOwnSocket, removeStaleSocket } from "./socket.ts"
import type { UnaryServer } from "./wire/unaryServer.ts"

const bind = (server: UnaryServer, path: string, endpoint: string): Effect.Effect<void, CsiServerError> =>
  Effect.tryPromise({
    try: () => server.listen(path),
    catch: (error) =>
      new CsiServerError({ reason: "Bind", endpoint, message: `cannot listen on ${path}: ${error instanceof Error ? error.message : String(error)}`, cause: error })
  })

/** Graceful first; after `timeout`, cancel whatever is still running. */
const shutdown = (server: UnaryServer, timeout: Duration.Duration): Effect.Effect<void> =>
  Effect.promise(() => server.shutdown(Duration.toMillis(timeout))).pipe(
    Effect.flatMap((graceful) =>
      graceful
        ? Effect.void
        : Effect.logWarning("calls were still running at shutdown; cancelled them").pipe(
          Effect.annotateLogs({ timeout: Duration.format(timeout) })
        )
    )
  )

/** Serve `server` on `socketPath` until the scope closes; succeeds once the socket is bound and 0600. */
export const serveOnSocket = (options: {
  readonly server: UnaryServer
  readonly socketPath: string
  /** The setting the path came from, for error messages. */
  readonly endpoint: string
  readonly shutdownTimeout: Duration.Duration
  /** How logs name this endpoint, e.g. "CSI endpoint". */
  readonly what: string
}): Effect.Effect<void, CsiServerError, Scope.Scope> =>
  Effect.gen(function*() {
    const { server, socketPath, endpoint } = options
    yield* removeStaleSocket(socketPath, endpoint)
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
