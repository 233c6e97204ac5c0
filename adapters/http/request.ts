/**
 * The HTTP transport to the API server: `node:https` (or `node:http` for a plain-HTTP
 * kubeconfig) with keep-alive agents, JSON in and out, every answer mapped through
 * `errors.ts`, and a request counter.
 *
 * Two agents: requests share a bounded pool of keep-alive sockets; watches hold a socket
 * each for as long as they run, so they get their own unbounded pool and never starve
 * ordinary requests. Interrupting a request or a watch aborts it and destroys its socket.
 */
import { Effect, Stream } from "effect"
import type { Scope } from "effect"
import type * as Http from "node:http"
import type * as Https from "node:https"
import type { KubeApiError } from "../../effects/shared/KubeApi.ts"
import { errorFromBadAnswer, errorFromResponse, errorFromTransport, RequestTimedOut } from "./errors.ts"
import type { RequestTarget } from "../../effects/shared/KubeApi.ts"
import type { ClusterConnection } from "./kubeconfig.ts"
import { countKubeApiRequest } from "./metrics.ts"
import { RequestCounter } from "./stats.ts"
import type { RequestStats } from "./stats.ts"

// Taken with getBuiltinModule: the ES-module form of `node:http` loads Node's fetch and
// WebSocket stack (~13 MB of memory) that this client never uses.
const http = process.getBuiltinModule("node:http") as typeof Http
const https = process.getBuiltinModule("node:https") as typeof Https

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

export interface HttpRequest {
  readonly target: RequestTarget
  readonly method: HttpMethod
  /** Path and query, relative to the server URL. */
  readonly path: string
  /** Sent as JSON text (also for apply: JSON is YAML). */
  readonly body?: unknown
  readonly contentType?: string | undefined
  /** For the request counter: the verb as the API server's metrics would name it (lower case)… */
  readonly verb: string
  /** …and `resource[/subresource]`. */
  readonly resource: string
}

export interface TransportOptions {
  readonly userAgent: string
  /** Upper bound of concurrent non-watch connections. */
  readonly maxSockets: number
  /** A non-watch request without any answer for this long fails with Timeout. */
  readonly requestTimeoutMillis: number
}

export interface SocketStats {
  /** Sockets carrying a request or a watch right now. */
  readonly active: number
  /** Idle keep-alive sockets. */
  readonly idle: number
}

/** What the port implementation needs from the wire. */
export interface Transport {
  /** Send one request; the parsed JSON answer on 2xx, a mapped `KubeApiError` otherwise. */
  readonly send: (request: HttpRequest) => Effect.Effect<unknown, KubeApiError>
  /**
   * A streaming GET: the body's lines until the server ends it (or the connection is idle
   * for `idleMillis`, which also ends the stream: the caller resumes as after a timeout).
   */
  readonly lines: (request: HttpRequest, idleMillis: number | undefined) => Stream.Stream<string, KubeApiError>
  readonly stats: () => RequestStats
  readonly resetStats: () => void
  readonly sockets: () => SocketStats
}

/**
 * Each request is a client span (a child of the reconcile or CSI call that sent it) named
 * and annotated as the API server's own metrics name it; a watch's span covers opening it.
 */
const withRequestSpan = (request: HttpRequest) =>
  Effect.withSpan(`${request.verb} ${request.resource}`, {
    kind: "client",
    attributes: {
      "k8s.verb": request.verb,
      "k8s.resource": request.resource,
      "http.request.method": request.method,
      ...(request.target.namespace !== undefined ? { "k8s.namespace.name": request.target.namespace } : {})
    }
  })

/** `resume` once: a request's error, its response's error and its end may all report; the first wins. */
const firstOnly = <A>(resume: (effect: A) => void) => {
  let settled = false
  return (effect: A) => {
    if (settled) return
    settled = true
    resume(effect)
  }
}

const annotateStatus = (status: number) => Effect.annotateCurrentSpan("http.response.status_code", status)

const countSockets = (agent: Http.Agent): SocketStats => {
  const sum = (pool: NodeJS.ReadOnlyDict<ReadonlyArray<unknown>>) =>
    Object.values(pool).reduce((n, list) => n + (list?.length ?? 0), 0)
  return { active: sum(agent.sockets), idle: sum(agent.freeSockets) }
}

const parseBody = (text: string): unknown => {
  if (text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export const makeTransport = (
  connection: ClusterConnection,
  options: TransportOptions
): Effect.Effect<Transport, never, Scope.Scope> =>
  Effect.gen(function*() {
    const secure = connection.server.protocol === "https:"
    const client = secure ? https : http
    const agentOptions = { keepAlive: true, scheduling: "lifo" as const, ...connection.tls }
    const makeAgent = (maxSockets: number) =>
      secure ? new https.Agent({ ...agentOptions, maxSockets }) : new http.Agent({ keepAlive: true, maxSockets })
    const requestAgent = yield* Effect.acquireRelease(
      Effect.sync(() => makeAgent(options.maxSockets)),
      (agent) => Effect.sync(() => agent.destroy())
    )
    const watchAgent = yield* Effect.acquireRelease(
      Effect.sync(() => makeAgent(Infinity)),
      (agent) => Effect.sync(() => agent.destroy())
    )
    const counter = new RequestCounter()
    // IPv6 literals come bracketed in URLs but not in socket options
    const hostname = connection.server.hostname.replace(/^\[(.*)\]$/u, "$1")
    const port = connection.server.port === "" ? (secure ? 443 : 80) : Number(connection.server.port)
    const basePath = connection.server.pathname.replace(/\/+$/u, "")

    const authHeaders = (target: RequestTarget) =>
      Effect.tryPromise({
        try: () => connection.authHeaders(),
        catch: (cause) =>
          errorFromResponse(target, 401, `cannot obtain credentials: ${cause instanceof Error ? cause.message : String(cause)}`)
      })

    const start = (
      request: HttpRequest,
      auth: Readonly<Record<string, string>>,
      agent: Http.Agent,
      signal: AbortSignal
    ): Http.ClientRequest => {
      counter.count(request.verb, request.resource)
      const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body), "utf8")
      const headers: Record<string, string | number> = {
        ...auth,
        "User-Agent": options.userAgent,
        Accept: "application/json"
      }
      if (payload !== undefined) {
        headers["Content-Type"] = request.contentType ?? "application/json"
        headers["Content-Length"] = payload.length
      }
      const req = client.request({ hostname, port, path: basePath + request.path, method: request.method, headers, agent, signal })
      req.end(payload)
      return req
    }

    /**
     * One request. A read that fails with ECONNRESET on a reused keep-alive socket is sent
     * once more on a fresh one: the API server closes idle connections (after 90 s) and a
     * request can leave on a socket in the instant it is being closed — the server never
     * read it. Seen as a node plugin's address refresh failing after a quiet spell (the
     * scale benchmark, issue 21), and then only the safety resync 30 s later retried it.
     * Writes are not resent: the client cannot know the server did not act on them.
     */
    const once = (request: HttpRequest, auth: Readonly<Record<string, string>>, mayResend: boolean): Effect.Effect<unknown, KubeApiError> =>
      Effect.callback<unknown, KubeApiError>((resume, signal) => {
        const { target } = request
        const settle = firstOnly(resume)
        const req = start(request, auth, requestAgent, signal)
        req.setTimeout(options.requestTimeoutMillis, () => req.destroy(new RequestTimedOut(options.requestTimeoutMillis)))
        req.on("error", (cause) => {
          const staleSocket = req.reusedSocket && (cause as NodeJS.ErrnoException).code === "ECONNRESET"
          settle(mayResend && staleSocket && request.method === "GET" && !signal.aborted
            ? once(request, auth, false)
            : Effect.fail(errorFromTransport(target, cause)))
        })
        req.on("response", (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (chunk: Buffer) => chunks.push(chunk))
          res.on("error", (cause) => settle(Effect.fail(errorFromTransport(target, cause))))
          res.on("end", () => {
            const status = res.statusCode ?? 0
            const body = parseBody(Buffer.concat(chunks).toString("utf8"))
            if (status >= 200 && status < 300) {
              settle(Effect.andThen(
                annotateStatus(status),
                typeof body === "string"
                  ? Effect.fail(errorFromBadAnswer(target, `answer is not JSON: ${body.slice(0, 200)}`))
                  : Effect.succeed(body)
              ))
            } else {
              settle(Effect.andThen(annotateStatus(status), Effect.fail(errorFromResponse(target, status, body))))
            }
          })
        })
      })

    const send = (request: HttpRequest): Effect.Effect<unknown, KubeApiError> =>
      Effect.flatMap(Effect.tap(authHeaders(request.target), () => countKubeApiRequest(request)), (auth) => once(request, auth, true)).pipe(
        withRequestSpan(request)
      )

    const lines = (request: HttpRequest, idleMillis: number | undefined): Stream.Stream<string, KubeApiError> =>
      Stream.unwrap(Effect.gen(function*() {
        const { target } = request
        const auth = yield* authHeaders(target)
        yield* countKubeApiRequest(request)
        const abort = yield* Effect.acquireRelease(
          Effect.sync(() => new AbortController()),
          (controller) => Effect.sync(() => controller.abort())
        )
        let idled = false
        const response = yield* Effect.callback<Http.IncomingMessage, KubeApiError>((resume) => {
          const settle = firstOnly(resume)
          const req = start(request, auth, watchAgent, abort.signal)
          if (idleMillis !== undefined) {
            req.setTimeout(idleMillis, () => {
              idled = true
              req.destroy(new RequestTimedOut(idleMillis))
            })
          }
          req.on("error", (cause) => settle(Effect.fail(errorFromTransport(target, cause))))
          req.on("response", (res) => {
            const status = res.statusCode ?? 0
            if (status === 200) return settle(Effect.as(annotateStatus(status), res))
            const chunks: Array<Buffer> = []
            res.on("data", (chunk: Buffer) => chunks.push(chunk))
            res.on("error", (cause) => settle(Effect.fail(errorFromTransport(target, cause))))
            res.on("end", () =>
              settle(Effect.andThen(
                annotateStatus(status),
                Effect.fail(errorFromResponse(target, status, parseBody(Buffer.concat(chunks).toString("utf8"))))
              )))
          })
        }).pipe(withRequestSpan(request))
        return Stream.fromAsyncIterable(response as AsyncIterable<Uint8Array>, (cause) => errorFromTransport(target, cause)).pipe(
          // an idle watch ends like one the server closed: the caller resumes from its last version
          Stream.catchIf(() => idled, () => Stream.empty),
          Stream.decodeText(),
          Stream.splitLines
        )
      }))

    const sockets = (): SocketStats => {
      const a = countSockets(requestAgent)
      const b = countSockets(watchAgent)
      return { active: a.active + b.active, idle: a.idle + b.idle }
    }

    return {
      send,
      lines,
      stats: () => counter.snapshot(),
      resetStats: () => counter.reset(),
      sockets
    }
  })
