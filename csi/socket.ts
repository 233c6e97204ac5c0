/**
 * The CSI endpoint's socket file: parsing the endpoint setting into a socket path,
 * clearing a stale socket before binding (never a live one, never a file that is not a
 * socket), and removing our own socket afterwards (not one a successor put there).
 */
import { Data, Effect, Option } from "effect"
import { lstat, unlink } from "node:fs/promises"
import { createConnection } from "node:net"
import { resolve } from "node:path"

export type CsiServerErrorReason =
  | "InvalidEndpoint" // not a usable Unix socket path
  | "NotASocket" // something other than a socket is in the way; never deleted
  | "SocketInUse" // another process is serving on the socket
  | "ProtoLoad" // csi.proto could not be loaded
  | "Bind" // the gRPC server could not listen
  | "Io" // removing, inspecting or chmod-ing the socket failed

export class CsiServerError extends Data.TaggedError("CsiServerError")<{
  readonly reason: CsiServerErrorReason
  readonly endpoint: string
  readonly message: string
  readonly cause?: unknown
}> {}

// sun_path is 108 bytes on Linux (104 on macOS), including the terminating NUL.
const MAX_SOCKET_PATH_BYTES = 103

/** The absolute socket path named by a CSI endpoint setting. */
export const socketPathOf = (endpoint: string): Effect.Effect<string, CsiServerError> => {
  const fail = (message: string) => Effect.fail(new CsiServerError({ reason: "InvalidEndpoint", endpoint, message }))
  let path: string
  if (endpoint.startsWith("unix://")) {
    path = endpoint.slice("unix://".length)
    if (!path.startsWith("/")) return fail(`endpoint ${JSON.stringify(endpoint)}: unix:// must be followed by an absolute path (unix:///csi/csi.sock)`)
  } else if (endpoint.startsWith("unix:")) {
    path = endpoint.slice("unix:".length)
  } else if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/u.test(endpoint)) {
    return fail(`endpoint ${JSON.stringify(endpoint)}: only Unix sockets are served (a path, or unix:///path)`)
  } else {
    path = endpoint
  }
  if (path === "") return fail("endpoint is empty: expected a socket path such as /csi/csi.sock")
  if (path.includes("\0")) return fail(`endpoint ${JSON.stringify(endpoint)} contains a NUL character`)
  const absolute = resolve(path)
  if (new TextEncoder().encode(absolute).length > MAX_SOCKET_PATH_BYTES) {
    return fail(`socket path ${absolute} is longer than ${MAX_SOCKET_PATH_BYTES} bytes, the limit for Unix sockets`)
  }
  return Effect.succeed(absolute)
}

export const ioError = (endpoint: string, message: string) => (cause: unknown) =>
  new CsiServerError({ reason: "Io", endpoint, message, cause })

const errnoOf = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause ? String((cause as { code: unknown }).code) : undefined

export interface SocketIdentity {
  readonly isSocket: boolean
  readonly dev: number
  readonly ino: number
  readonly description: string
}

/** What is at `path` (links not followed), or none. */
export const inspectPath = (path: string, endpoint: string): Effect.Effect<Option.Option<SocketIdentity>, CsiServerError> =>
  Effect.tryPromise({
    try: async () => {
      try {
        const stats = await lstat(path)
        const description = stats.isSocket() ? "socket" : stats.isDirectory() ? "directory" : stats.isSymbolicLink()
          ? "symbolic link"
          : stats.isFile() ? "regular file" : "special file"
        return Option.some({ isSocket: stats.isSocket(), dev: stats.dev, ino: stats.ino, description })
      } catch (cause) {
        if (errnoOf(cause) === "ENOENT") return Option.none<SocketIdentity>()
        throw cause
      }
    },
    catch: ioError(endpoint, `cannot inspect ${path}`)
  })

/** True when some process accepts connections on the socket (so it is not stale). */
export const isServed = (path: string): Effect.Effect<boolean> =>
  Effect.callback<boolean>((resume) => {
    const socket = createConnection(path)
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => {
      socket.destroy()
      resume(Effect.succeed(false))
    })
    return Effect.sync(() => socket.destroy())
  }).pipe(Effect.timeoutOption("2 seconds"), Effect.map(Option.getOrElse(() => false)))

const removeFile = (path: string, endpoint: string): Effect.Effect<void, CsiServerError> =>
  Effect.tryPromise({
    try: async () => {
      try {
        await unlink(path)
      } catch (cause) {
        if (errnoOf(cause) !== "ENOENT") throw cause
      }
    },
    catch: ioError(endpoint, `cannot remove ${path}`)
  })

export const removeStaleSocket = Effect.fnUntraced(function*(path: string, endpoint: string) {
  const existing = yield* inspectPath(path, endpoint)
  if (Option.isNone(existing)) return
  if (!existing.value.isSocket) {
    return yield* new CsiServerError({
      reason: "NotASocket",
      endpoint,
      message: `refusing to replace ${path}: it is a ${existing.value.description}, not a socket; remove it or choose another endpoint`
    })
  }
  if (yield* isServed(path)) {
    return yield* new CsiServerError({
      reason: "SocketInUse",
      endpoint,
      message: `another process is serving on ${path}; refusing to take its socket over`
    })
  }
  yield* removeFile(path, endpoint)
  yield* Effect.logInfo("removed stale CSI socket").pipe(Effect.annotateLogs({ socket: path }))
})

/** Remove the socket only if it is still the one we bound (a successor may have replaced it). */
export const removeOwnSocket = (path: string, endpoint: string, bound: SocketIdentity): Effect.Effect<void> =>
  inspectPath(path, endpoint).pipe(
    Effect.flatMap((current) =>
      Option.isSome(current) && current.value.isSocket && current.value.dev === bound.dev && current.value.ino === bound.ino
        ? removeFile(path, endpoint)
        : Effect.void
    ),
    Effect.catch((error) => Effect.logWarning("cannot remove the CSI socket", error.message))
  )

