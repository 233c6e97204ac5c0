// The transport over a keep-alive socket the server closes just as a request leaves on it
// (the API server closes idle connections after 90 s): a read is sent once more on a fresh
// socket and succeeds; a write is not resent and fails as Unavailable. A local HTTP server
// plays the API server, closing each connection when its second request arrives.
// Node only (deno.json excludes this file): Deno's node:http client resends such a request
// itself — a POST too — so the transport never sees the failure there (docs/library.md).
import { test } from "node:test"
import assert from "node:assert/strict"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { makeTransport } from "../../../../adapters/http/request.ts"
import type { HttpRequest } from "../../../../adapters/http/request.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApiError } from "../../../../effects/shared/KubeApi.ts"

const withClosingServer = async (body: (server: URL, seen: { requests: Array<string>; connections: number }) => Promise<void>) => {
  const seen = { requests: [] as Array<string>, connections: 0 }
  const perSocket = new WeakMap<object, number>()
  const server = createServer({ keepAlive: true }, (req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1
    perSocket.set(req.socket, n)
    seen.requests.push(`${req.method} ${req.url}`)
    if (n === 2) {
      req.socket.destroy()
      return
    }
    res.setHeader("Content-Type", "application/json")
    res.end(JSON.stringify({ kind: "Pod", metadata: { name: "web-0" } }))
  })
  server.on("connection", () => void seen.connections++)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    await body(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), seen)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

const request = (method: "GET" | "POST"): HttpRequest => ({
  target: { verb: method === "GET" ? "get" : "create", kind: Kinds.Pod, namespace: "default", name: "web-0" },
  method,
  path: method === "GET" ? "/api/v1/namespaces/default/pods/web-0" : "/api/v1/namespaces/default/pods",
  body: method === "GET" ? undefined : { kind: "Pod" },
  verb: method === "GET" ? "get" : "create",
  resource: "pods"
})

const transport = (server: URL) =>
  makeTransport({ server, tls: {}, authHeaders: async () => ({}) }, { userAgent: "test", maxSockets: 1, requestTimeoutMillis: 5_000 })

test("a read that meets a keep-alive socket closing under it is sent once more on a fresh socket", () =>
  withClosingServer((server, seen) =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const wire = yield* transport(server)
      yield* wire.send(request("GET"))
      const answer = yield* wire.send(request("GET"))
      assert.deepEqual(answer, { kind: "Pod", metadata: { name: "web-0" } })
      assert.equal(seen.requests.length, 3, "the first, the one the closing socket swallowed, and its resend")
      assert.equal(seen.connections, 2, "the resend went on a fresh socket")
    })))))

test("a write that meets a closing keep-alive socket is not resent: it fails as Unavailable", () =>
  withClosingServer((server, seen) =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const wire = yield* transport(server)
      yield* wire.send(request("GET"))
      const error = yield* Effect.flip(wire.send(request("POST")))
      assert.ok(error instanceof KubeApiError)
      assert.equal(error.reason, "Unavailable")
      assert.deepEqual(seen.requests, ["GET /api/v1/namespaces/default/pods/web-0", "POST /api/v1/namespaces/default/pods"])
    })))))
