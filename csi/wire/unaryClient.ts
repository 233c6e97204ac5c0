/**
 * A gRPC client for unary calls over a Unix socket on node:http2: the kubelet stand-in of
 * the tests, the demo and library users call CSI endpoints with it. One HTTP/2 connection,
 * opened on first use and again after it closes.
 */
import { connect as connectHttp2, constants } from "node:http2"
import type { ClientHttp2Session, IncomingHttpHeaders } from "node:http2"
import { connect as connectSocket } from "node:net"
import { decodeGrpcMessage, formatGrpcTimeout, frameMessage, unframeSingleMessage } from "./framing.ts"
import { GrpcStatus, grpcStatusOf } from "./grpcStatus.ts"

export type UnaryResult =
  | { readonly ok: true; readonly message: Uint8Array }
  | { readonly ok: false; readonly code: GrpcStatus; readonly details: string }

export interface UnaryClient {
  /** Never rejects: transport trouble is UNAVAILABLE, a passed deadline DEADLINE_EXCEEDED. */
  call(path: string, message: Uint8Array, options?: { readonly timeoutMs?: number | undefined; readonly signal?: AbortSignal | undefined }): Promise<UnaryResult>
  close(): void
}

const statusOf = (headers: IncomingHttpHeaders): { code: GrpcStatus; details: string } | undefined => {
  const code = headers["grpc-status"]
  if (code === undefined) return undefined
  return { code: grpcStatusOf(String(code)), details: decodeGrpcMessage(String(headers["grpc-message"] ?? "")) }
}

export const makeUnaryClient = (socketPath: string): UnaryClient => {
  let session: ClientHttp2Session | undefined
  // Calls in flight keep the process alive; an idle connection does not.
  let active = 0
  const sessionOf = (): ClientHttp2Session => {
    if (session === undefined || session.closed || session.destroyed) {
      const opened = connectHttp2("http://localhost", { createConnection: () => connectSocket(socketPath) })
      opened.on("error", () => undefined)
      opened.once("close", () => {
        if (session === opened) session = undefined
      })
      // Idle connections must not keep the process alive.
      opened.unref()
      session = opened
    }
    return session
  }

  const call: UnaryClient["call"] = (path, message, options = {}) =>
    new Promise<UnaryResult>((resolve) => {
      let settled = false
      const settle = (result: UnaryResult) => {
        if (settled) return
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        options.signal?.removeEventListener("abort", onAbort)
        resolve(result)
      }
      const headers: Record<string, string> = {
        ":method": "POST",
        ":path": path,
        "content-type": "application/grpc",
        te: "trailers"
      }
      if (options.timeoutMs !== undefined) headers["grpc-timeout"] = formatGrpcTimeout(options.timeoutMs)
      let stream: ReturnType<ClientHttp2Session["request"]>
      try {
        const current = sessionOf()
        stream = current.request(headers)
        if (active++ === 0) current.ref()
      } catch (cause) {
        return settle({ ok: false, code: GrpcStatus.UNAVAILABLE, details: `cannot reach ${socketPath}: ${cause instanceof Error ? cause.message : String(cause)}` })
      }
      const cancel = (code: GrpcStatus, details: string) => {
        settle({ ok: false, code, details })
        stream.close(constants.NGHTTP2_CANCEL)
      }
      const onAbort = () => cancel(GrpcStatus.CANCELLED, "call cancelled by the caller")
      options.signal?.addEventListener("abort", onAbort)
      const timer = options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => cancel(GrpcStatus.DEADLINE_EXCEEDED, `deadline of ${options.timeoutMs} ms exceeded`), options.timeoutMs)

      const chunks: Buffer[] = []
      let status: { code: GrpcStatus; details: string } | undefined
      let httpStatus: number | undefined
      stream.on("response", (responseHeaders) => {
        httpStatus = Number(responseHeaders[":status"])
        status = statusOf(responseHeaders)
      })
      stream.on("trailers", (trailers) => {
        status = statusOf(trailers) ?? status
      })
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("error", (error) => settle({ ok: false, code: GrpcStatus.UNAVAILABLE, details: `connection to ${socketPath} failed: ${error.message}` }))
      stream.once("close", () => {
        if (--active === 0) session?.unref()
        if (status === undefined) {
          return settle({
            ok: false,
            code: httpStatus !== undefined && httpStatus !== 200 ? GrpcStatus.UNKNOWN : GrpcStatus.UNAVAILABLE,
            details: httpStatus !== undefined && httpStatus !== 200 ? `HTTP status ${httpStatus}` : "the call ended without a status"
          })
        }
        if (status.code !== GrpcStatus.OK) return settle({ ok: false, ...status })
        const body = unframeSingleMessage(Buffer.concat(chunks))
        settle(body.ok ? { ok: true, message: body.message } : { ok: false, code: GrpcStatus.INTERNAL, details: `bad response: ${body.detail}` })
      })
      stream.end(frameMessage(message))
    })

  return {
    call,
    close: () => {
      session?.close()
      session = undefined
    }
  }
}
