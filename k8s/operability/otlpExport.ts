/**
 * The wire under Effect's OTLP exporters (effect/observability OtlpTracer, OtlpLogger), made
 * safe for an operator whose collector may be down or slow.
 *
 * Effect's exporter keeps what it could not send in memory and starts one more request per
 * full batch while earlier ones hang: against a collector that accepts connections and
 * never answers, its requests and their bodies pile up without bound. So the HttpClient we
 * give it never waits: it hands the encoded batch to a bounded queue (at most
 * `maxQueuedItems` spans or log records waiting) and answers at once. One sender fiber
 * posts the queued batches, one at a time, each bounded by `timeoutMillis`. A batch that
 * does not fit, or whose post fails or times out, is dropped and its items counted in
 * `listener_operator_otlp_dropped_total` — memory stays bounded and the roles never wait
 * for the collector.
 *
 * The items per batch come from the serialization (it sees the batch before encoding it),
 * so nothing is decoded again to count.
 */
import { Effect, Layer, Metric, Queue, Schedule } from "effect"
import type { Scope } from "effect"
// Module by module (not the barrels): see telemetry.ts.
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpBody from "effect/http/HttpBody"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as OtlpSerialization from "effect/observability/OtlpSerialization"

export type OtlpSignal = "traces" | "logs"

export const otlpDroppedTotal = Metric.counter("listener_operator_otlp_dropped_total", {
  description: "Spans and log records not exported over OTLP (export queue full, collector down, slow or refusing), by signal",
  incremental: true
})

export const otlpExportedTotal = Metric.counter("listener_operator_otlp_exported_total", {
  description: "Spans and log records the OTLP collector accepted, by signal",
  incremental: true
})

export interface OtlpWireOptions {
  /** Spans or log records (together) allowed to wait for the sender; more are dropped. */
  readonly maxQueuedItems: number
  /** One post gets this long before it is abandoned and its batch dropped. */
  readonly timeoutMillis: number
  /** Told once when exporting starts failing, and once when it works again. */
  /** At shutdown, how long queued batches may still be sent (default 2 s). */
  readonly shutdownMillis?: number
  readonly onHealthChange?: (healthy: boolean, detail: string) => Effect.Effect<void>
}

interface Batch {
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: Uint8Array
  readonly contentType: string
  readonly items: number
  readonly signal: OtlpSignal
}

const itemsInTraces = (data: unknown): number => countNested(data, "resourceSpans", "scopeSpans", "spans")
const itemsInLogs = (data: unknown): number => countNested(data, "resourceLogs", "scopeLogs", "logRecords")

const countNested = (data: unknown, outer: string, middle: string, inner: string): number => {
  let count = 0
  for (const resource of (data as Record<string, ReadonlyArray<Record<string, ReadonlyArray<Record<string, ReadonlyArray<unknown>>>>>>)[outer] ?? []) {
    for (const scope of resource[middle] ?? []) count += scope[inner]?.length ?? 0
  }
  return count
}

const signalOfUrl = (url: URL): OtlpSignal => url.pathname.endsWith("/logs") ? "logs" : "traces"

const bytesOf = (body: HttpBody.HttpBody): Uint8Array | undefined => {
  switch (body._tag) {
    case "Uint8Array":
      return body.body
    case "Empty":
      return new Uint8Array()
    default:
      return undefined
  }
}

const countDropped = (signal: OtlpSignal, items: number) =>
  items === 0 ? Effect.void : Metric.update(Metric.withAttributes(otlpDroppedTotal, { signal }), items)

/**
 * The HttpClient and OtlpSerialization for Effect's OTLP layers, with the queue's sender
 * running in the layer's scope (its last batches are not waited for at shutdown: a stop
 * never waits for a collector).
 */
export const otlpWireLayer = (
  serialization: "protobuf" | "json",
  options: OtlpWireOptions
): Layer.Layer<HttpClient.HttpClient | OtlpSerialization.OtlpSerialization> =>
  Layer.unwrap(Effect.gen(function*() {
    const wire = yield* makeOtlpWire(serialization, options)
    return Layer.merge(
      Layer.succeed(HttpClient.HttpClient, wire.client),
      Layer.succeed(OtlpSerialization.OtlpSerialization, wire.serialization)
    )
  }))

export const makeOtlpWire = (
  serialization: "protobuf" | "json",
  options: OtlpWireOptions
): Effect.Effect<{
  readonly client: HttpClient.HttpClient
  readonly serialization: OtlpSerialization.OtlpSerialization["Service"]
  /** Items waiting for the sender now (for tests). */
  readonly queuedItems: () => number
}, never, Scope.Scope> =>
  Effect.gen(function*() {
    const base = yield* Effect.provide(
      Effect.service(OtlpSerialization.OtlpSerialization),
      serialization === "json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf
    )
    // What each encoded body holds, learned while encoding (a body is a fresh object per batch).
    const itemsOfBody = new WeakMap<HttpBody.HttpBody, number>()
    const counted = (body: HttpBody.HttpBody, items: number) => {
      itemsOfBody.set(body, items)
      return body
    }
    const countingSerialization: OtlpSerialization.OtlpSerialization["Service"] = {
      traces: (data) => counted(base.traces(data), itemsInTraces(data)),
      logs: (data) => counted(base.logs(data), itemsInLogs(data)),
      metrics: (data) => base.metrics(data)
    }

    const queue = yield* Queue.unbounded<Batch>()
    let queuedItems = 0
    let healthy = true
    const health = (ok: boolean, detail: string) => {
      if (ok === healthy) return Effect.void
      healthy = ok
      return options.onHealthChange?.(ok, detail) ?? Effect.void
    }

    const post = (batch: Batch) =>
      Effect.tryPromise({
        try: async () => {
          const response = await fetch(batch.url, {
            method: "POST",
            headers: { ...batch.headers, "content-type": batch.contentType },
            body: batch.body as Uint8Array<ArrayBuffer>,
            signal: AbortSignal.timeout(options.timeoutMillis)
          })
          // the body is read so the connection can be reused
          await response.arrayBuffer().catch(() => undefined)
          if (!response.ok) throw new Error(`the collector answered ${response.status}`)
        },
        catch: (cause) => cause instanceof Error ? cause.message : String(cause)
      })

    let posting = false
    const sendOne = Effect.gen(function*() {
      const batch = yield* Queue.take(queue)
      posting = true
      const result = yield* Effect.result(post(batch))
      posting = false
      queuedItems -= batch.items
      if (result._tag === "Success") {
        yield* Metric.update(Metric.withAttributes(otlpExportedTotal, { signal: batch.signal }), batch.items)
        yield* health(true, batch.url)
      } else {
        yield* countDropped(batch.signal, batch.items)
        yield* health(false, `${batch.url}: ${result.failure}`)
      }
    })
    // The sender's own work is never traced (it would feed itself).
    yield* Effect.forkScoped(Effect.forever(sendOne).pipe(Effect.withTracerEnabled(false)))
    // At shutdown (after Effect's exporters handed over their last batch): a short wait for
    // the queue to drain, so a stopping role's last spans are not lost to a healthy
    // collector; bounded, so a stop never waits on a dead one.
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => queuedItems === 0 && !posting ? Effect.void : Effect.fail("busy" as const)).pipe(
        Effect.retry({ schedule: Schedule.spaced("50 millis") }),
        Effect.timeoutOption(options.shutdownMillis ?? 2000),
        Effect.ignore
      ))

    const client = HttpClient.make((request, url) =>
      Effect.gen(function*() {
        const signal = signalOfUrl(url)
        const items = itemsOfBody.get(request.body) ?? 0
        const body = bytesOf(request.body)
        if (body === undefined || queuedItems + items > options.maxQueuedItems) {
          yield* countDropped(signal, items)
        } else {
          queuedItems += items
          Queue.offerUnsafe(queue, {
            url: url.toString(),
            headers: { ...request.headers },
            body,
            contentType: request.body._tag === "Uint8Array" ? request.body.contentType : "application/octet-stream",
            items,
            signal
          })
        }
        // Accepted (or dropped and counted): Effect's exporter must never wait or retry.
        return HttpClientResponse.fromWeb(request, new Response(null, { status: 200 }))
      })
    )
    return { client, serialization: countingSerialization, queuedItems: () => queuedItems }
  })
