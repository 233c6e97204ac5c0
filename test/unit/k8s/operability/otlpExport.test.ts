// The OTLP export under a collector that is down, never answers, or is slow: the traced
// work is not slowed, memory stays bounded, and what cannot be sent is counted as dropped.
// Real Effect exporters (OtlpTracer) over our bounded wire, real HTTP on loopback.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createServer } from "node:http"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { Effect, Layer, Metric } from "effect"
import * as OtlpTracer from "effect/observability/OtlpTracer"
import { makeOtlpWire, otlpDroppedTotal, otlpExportedTotal, otlpWireLayer } from "../../../../k8s/operability/otlpExport.ts"

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void

const serve = async (handler: Handler): Promise<{ readonly url: string; readonly requests: () => number; readonly close: () => Promise<void> }> => {
  let requests = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((req, res) => {
    requests++
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => handler(req, res, Buffer.concat(chunks)))
  })
  server.on("connection", (s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}

/** A full garbage collection, where the runtime lets a test ask for one (Node: through V8's flag). */
const gc: (() => void) | undefined = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (exposed !== undefined) return exposed
  if ("Deno" in globalThis) return undefined
  try {
    setFlagsFromString("--expose-gc")
    return runInNewContext("gc") as () => void
  } catch {
    return undefined
  }
})()

const counterValue = (metric: typeof otlpDroppedTotal, signal: string) =>
  Effect.map(Metric.value(Metric.withAttributes(metric, { signal })), (state) => Number(state.count))

/** `spans` spans, each its own trace, through a tracer exporting to `url`; how long they took and the counters after. */
const traceThrough = (url: string, spans: number, options: { readonly maxQueuedItems: number; readonly timeoutMillis: number }) =>
  Effect.gen(function*() {
    const started = performance.now()
    for (let i = 0; i < spans; i++) {
      yield* Effect.void.pipe(Effect.withSpan("work", { root: true, attributes: { i } }))
    }
    const tookMillis = performance.now() - started
    // let the export interval run and the sender settle
    yield* Effect.sleep("600 millis")
    return {
      tookMillis,
      dropped: yield* counterValue(otlpDroppedTotal, "traces"),
      exported: yield* counterValue(otlpExportedTotal, "traces")
    }
  }).pipe(
    Effect.provide(
      OtlpTracer.layer({ url, exportInterval: "100 millis", maxBatchSize: 100, shutdownTimeout: "100 millis", resource: { serviceName: "test" } }).pipe(
        Layer.provide(otlpWireLayer("json", { ...options, shutdownMillis: 100 }))
      )
    )
  )

test("a collector that accepts and never answers: spans are dropped and counted, memory stays bounded, the work is not slowed", async () => {
  const blackHole = await serve(() => { /* never answers */ })
  try {
    const warm = await Effect.runPromise(traceThrough(blackHole.url, 2_000, { maxQueuedItems: 200, timeoutMillis: 60_000 }))
    gc?.()
    const heapBefore = process.memoryUsage().heapUsed
    const run = await Effect.runPromise(traceThrough(blackHole.url, 50_000, { maxQueuedItems: 200, timeoutMillis: 60_000 }))
    gc?.()
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore
    // each run holds at most one request in flight (never answered) and 200 queued spans
    assert.ok(run.dropped - warm.dropped >= 50_000 - 300, `dropped ${run.dropped - warm.dropped} of 50000`)
    assert.equal(run.exported, 0)
    assert.ok(blackHole.requests() <= 2, `one post in flight per run, got ${blackHole.requests()}`)
    // 50,000 spans kept would be tens of MB; bounded, the heap grows by far less (measured
    // after a full collection: without one — Deno — the figure is the garbage's, not ours)
    if (gc !== undefined) assert.ok(heapGrowth < 25 * 1024 * 1024, `heap grew by ${Math.round(heapGrowth / 1024 / 1024)} MiB`)
    assert.ok(run.tookMillis < 20_000, `50,000 traced steps took ${Math.round(run.tookMillis)} ms`)
  } finally {
    await blackHole.close()
  }
})

test("a slow collector: at most one post at a time, a post past the timeout is dropped and counted", async () => {
  const slow = await serve((_req, res) => setTimeout(() => res.end(), 400))
  try {
    const before = await Effect.runPromise(counterValue(otlpDroppedTotal, "traces"))
    const run = await Effect.runPromise(traceThrough(slow.url, 1_000, { maxQueuedItems: 300, timeoutMillis: 100 }))
    assert.ok(run.dropped - before >= 700, `queue full or timed out: ${run.dropped - before} dropped`)
    assert.ok(slow.requests() <= 6, `posts are serial, ${slow.requests()} reached the collector`)
  } finally {
    await slow.close()
  }
})

test("a collector that is down: every span is counted as dropped, none exported", async () => {
  const gone = await serve(() => {})
  const url = gone.url
  await gone.close()
  const dropped = await Effect.runPromise(counterValue(otlpDroppedTotal, "traces"))
  const exported = await Effect.runPromise(counterValue(otlpExportedTotal, "traces"))
  const run = await Effect.runPromise(traceThrough(url, 150, { maxQueuedItems: 1000, timeoutMillis: 1000 }))
  assert.equal(run.dropped - dropped, 150)
  assert.equal(run.exported - exported, 0)
})

test("a healthy collector receives every span as OTLP, with trace and parent ids", async () => {
  const received: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string }> = []
  const collector = await serve((_req, res, body) => {
    const data = JSON.parse(body.toString("utf8")) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: typeof received }> }> }
    for (const r of data.resourceSpans) for (const s of r.scopeSpans) received.push(...s.spans)
    res.end("{}")
  })
  try {
    const exported = await Effect.runPromise(counterValue(otlpExportedTotal, "traces"))
    await Effect.runPromise(
      Effect.void.pipe(
        Effect.withSpan("child"),
        Effect.withSpan("parent", { root: true }),
        Effect.andThen(Effect.sleep("400 millis")),
        Effect.provide(
          OtlpTracer.layer({ url: collector.url, exportInterval: "50 millis", resource: { serviceName: "test" } }).pipe(
            Layer.provide(otlpWireLayer("json", { maxQueuedItems: 100, timeoutMillis: 1000 }))
          )
        )
      )
    )
    const parent = received.find((s) => s.name === "parent")
    const child = received.find((s) => s.name === "child")
    assert.ok(parent && child, JSON.stringify(received))
    assert.equal(child.traceId, parent.traceId)
    assert.equal(child.parentSpanId, parent.spanId)
    assert.equal((await Effect.runPromise(counterValue(otlpExportedTotal, "traces"))) - exported, 2)
  } finally {
    await collector.close()
  }
})

test("the queue bound counts items, not requests", async () => {
  const blackHole = await serve(() => {})
  try {
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const wire = yield* makeOtlpWire("json", { maxQueuedItems: 10, timeoutMillis: 60_000, shutdownMillis: 10 })
      const trace = (n: number) => ({
        resourceSpans: [{ resource: { attributes: [], droppedAttributesCount: 0 }, scopeSpans: [{ scope: { name: "t" }, spans: Array.from({ length: n }, () => ({})) }] }]
      })
      const send = (n: number) =>
        wire.client.post(blackHole.url, { body: wire.serialization.traces(trace(n) as never) })
      yield* send(4) // taken by the sender, in flight forever
      yield* Effect.sleep("50 millis")
      yield* send(6)
      yield* send(4)
      yield* send(1)
      // 4 in flight + 6 waiting = 10: the 4 are dropped, the 1 no longer fits either
      assert.equal(wire.queuedItems(), 10)
    })))
  } finally {
    await blackHole.close()
  }
})
