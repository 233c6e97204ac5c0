/**
 * A gRPC server for unary calls on node:http2 — all that CSI and the kubelet's plugin
 * registration need (grpc/doc/PROTOCOL-HTTP2.md): one request message in, one response
 * message or a status out. Written on the runtime's own HTTP/2 server because a general
 * gRPC library (streaming, channelz, load balancing, .proto parsing at start) was most of
 * the node plugin's memory and start-up time (docs/performance.md).
 *
 * What a peer gets: an unknown method or a compressed message → UNIMPLEMENTED; a request
 * over 4 MiB → RESOURCE_EXHAUSTED; a body that is not exactly one message → INVALID_ARGUMENT
 * saying what is wrong; a call past its `grpc-timeout` → DEADLINE_EXCEEDED. A call the
 * client cancels (or whose deadline passes, or that is still running when shutdown gives
 * up waiting) has its `signal` aborted. Nothing a peer sends can throw out of here.
 */
import { createServer } from "node:http2"
import type { Http2Session, IncomingHttpHeaders, ServerHttp2Stream } from "node:http2"
import { encodeGrpcMessage, frameMessage, MAX_MESSAGE_BYTES, parseGrpcTimeout, unframeSingleMessage } from "./framing.ts"
import { GrpcStatus } from "./grpcStatus.ts"

export interface UnaryCall {
  /** e.g. `/csi.v1.Node/NodePublishVolume` */
  readonly path: string
  readonly message: Uint8Array
  /** Aborted when the client cancels, the deadline passes, or shutdown cancels the call. */
  readonly signal: AbortSignal
}

export type UnaryReply =
  | { readonly ok: true; readonly message: Uint8Array }
  | { readonly ok: false; readonly code: GrpcStatus; readonly details: string }

/** Must not reject: a failure is a reply with a status. */
export type UnaryRoute = (call: UnaryCall) => Promise<UnaryReply>

export interface UnaryServer {
  /** Listens on a Unix socket path; rejects if it cannot. */
  listen(path: string): Promise<void>
  /**
   * Stops accepting calls and lets running ones finish; after `timeoutMs` cancels what is
   * left and closes every connection. Resolves `true` when everything finished in time.
   */
  shutdown(timeoutMs: number): Promise<boolean>
}

const GRPC_CONTENT_TYPE = /^application\/grpc(\+proto)?(;|$)/u

const failure = (code: GrpcStatus, details: string): UnaryReply => ({ ok: false, code, details })

/** Answers one stream exactly once, whatever happens to it meanwhile. */
const answerer = (stream: ServerHttp2Stream) => {
  let answered = false
  const answer = (reply: UnaryReply): void => {
    if (answered) return
    answered = true
    if (stream.destroyed || stream.closed) return
    try {
      if (reply.ok) {
        stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-accept-encoding": "identity" }, { waitForTrailers: true })
        stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(GrpcStatus.OK) }))
        stream.end(frameMessage(reply.message))
      } else {
        // Trailers-only: the status travels in the one header block.
        stream.respond({
          ":status": 200,
          "content-type": "application/grpc",
          "grpc-status": String(reply.code),
          "grpc-message": encodeGrpcMessage(reply.details)
        }, { endStream: true })
      }
    } catch {
      // The peer went away between our check and the write: nobody is left to answer.
    }
  }
  return { answer, answered: () => answered }
}

const respondHttpError = (stream: ServerHttp2Stream, status: number): void => {
  try {
    stream.respond({ ":status": status }, { endStream: true })
  } catch {
    // gone already
  }
}

const serveStream = (routes: ReadonlyMap<string, UnaryRoute>, stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void => {
  stream.on("error", () => undefined)
  // Answered before the body is read: drain it, so the stream can end and be released.
  const refuse = (refusal: () => void) => {
    refusal()
    stream.resume()
  }
  if (headers[":method"] !== "POST") return refuse(() => respondHttpError(stream, 405))
  if (!GRPC_CONTENT_TYPE.test(String(headers["content-type"] ?? ""))) return refuse(() => respondHttpError(stream, 415))
  const { answer, answered } = answerer(stream)
  const path = String(headers[":path"] ?? "")
  const encoding = headers["grpc-encoding"]
  if (encoding !== undefined && encoding !== "identity") {
    return refuse(() => answer(failure(GrpcStatus.UNIMPLEMENTED, `message encoding ${String(encoding)} is not supported; use identity`)))
  }
  const route = routes.get(path)
  if (route === undefined) return refuse(() => answer(failure(GrpcStatus.UNIMPLEMENTED, `method ${path} is not implemented by this server`)))

  const controller = new AbortController()
  const timeoutMs = parseGrpcTimeout(headers["grpc-timeout"] as string | undefined)
  const deadline = timeoutMs === undefined ? undefined : setTimeout(() => {
    answer(failure(GrpcStatus.DEADLINE_EXCEEDED, `deadline of ${timeoutMs} ms exceeded`))
    controller.abort(new Error("deadline exceeded"))
  }, timeoutMs)
  stream.once("close", () => {
    if (deadline !== undefined) clearTimeout(deadline)
    if (!answered()) controller.abort(new Error("call cancelled"))
  })

  const chunks: Buffer[] = []
  let size = 0
  stream.on("data", (chunk: Buffer) => {
    if (answered()) return
    size += chunk.length
    if (size > MAX_MESSAGE_BYTES + 5) {
      answer(failure(GrpcStatus.RESOURCE_EXHAUSTED, `request larger than ${MAX_MESSAGE_BYTES} bytes`))
      chunks.length = 0
      return
    }
    chunks.push(chunk)
  })
  stream.once("end", () => {
    if (answered()) return
    const body = unframeSingleMessage(Buffer.concat(chunks))
    if (!body.ok) {
      return answer(failure(body.problem === "compressed" ? GrpcStatus.UNIMPLEMENTED : GrpcStatus.INVALID_ARGUMENT, body.detail))
    }
    route({ path, message: body.message, signal: controller.signal }).then(
      answer,
      (cause: unknown) => answer(failure(GrpcStatus.INTERNAL, `internal error: ${cause instanceof Error ? cause.message : String(cause)}`))
    ).finally(() => {
      if (deadline !== undefined) clearTimeout(deadline)
    })
  })
}

/** A server for `routes` (gRPC path → route); not listening until `listen`. */
export const makeUnaryServer = (routes: ReadonlyMap<string, UnaryRoute>): UnaryServer => {
  const server = createServer()
  const sessions = new Set<Http2Session>()
  server.on("session", (session: Http2Session) => {
    sessions.add(session)
    session.on("error", () => undefined)
    session.once("close", () => sessions.delete(session))
  })
  server.on("stream", (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => serveStream(routes, stream, headers))
  // Errors of a connection or a stream concern that peer only; the server keeps serving.
  server.on("sessionError", () => undefined)
  return {
    listen: (path) =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject)
        server.listen(path, () => {
          server.off("error", reject)
          server.on("error", () => undefined)
          resolve()
        })
      }),
    shutdown: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        let settled = false
        const settle = (graceful: boolean) => {
          if (settled) return
          settled = true
          clearTimeout(giveUp)
          resolve(graceful)
        }
        const giveUp = setTimeout(() => {
          for (const session of sessions) session.destroy()
          settle(false)
        }, timeoutMs)
        server.close(() => settle(true))
        // GOAWAY: no new calls on these connections; they close once their calls finish.
        for (const session of sessions) session.close()
      })
  }
}
