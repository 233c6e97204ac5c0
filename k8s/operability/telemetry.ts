/**
 * OpenTelemetry export of a role: Effect's own tracer and logger exporters
 * (effect/observability OtlpTracer, OtlpLogger — no OTLP encoding of ours) over the bounded
 * wire of otlpExport.ts. Loaded only when an export is on (cli.ts imports it on demand), so
 * a role with telemetry off runs exactly as before: Effect's in-process tracer, nothing
 * sent, no exporter fiber.
 *
 * Every log record written inside a span carries that span's trace and span id (Effect's
 * OtlpLogger reads the fiber's current span), so a reconcile's or a CSI call's logs are
 * found by its trace id.
 */
import { Effect, Layer, Logger, Tracer } from "effect"
import type { Scope } from "effect"
import * as LogLevel from "effect/LogLevel"
// Module by module, not the effect/observability barrel: the probes import
// PrometheusMetrics from it, and the barrel would put the exporters in their shared chunk,
// loaded by every role even with telemetry off.
import * as OtlpExporter from "effect/observability/OtlpExporter"
import * as OtlpLogger from "effect/observability/OtlpLogger"
import * as OtlpTracer from "effect/observability/OtlpTracer"
import { otlpWireLayer } from "./otlpExport.ts"
import type { SignalExport, TelemetrySettings } from "./telemetrySettings.ts"

export interface TelemetryResource {
  /** `controller` or `node`: the resource attribute `listener_operator.role`. */
  readonly role: string
  readonly version: string
}

const resourceOf = (settings: TelemetrySettings, resource: TelemetryResource) => ({
  serviceName: settings.serviceName,
  serviceVersion: resource.version,
  // OTEL_RESOURCE_ATTRIBUTES is merged in by Effect's OtlpResource; ours win on a clash.
  attributes: { "listener_operator.role": resource.role }
})

const wireOf = (signal: SignalExport, name: string) =>
  otlpWireLayer(signal.protocol === "http/json" ? "json" : "protobuf", {
    maxQueuedItems: signal.maxQueueSize,
    timeoutMillis: signal.timeoutMillis,
    onHealthChange: (healthy, detail) =>
      healthy
        ? Effect.logInfo(`OTLP ${name} export works again (${detail})`)
        : Effect.logWarning(`OTLP ${name} export failed, dropping what cannot be sent (counted in listener_operator_otlp_dropped_total): ${detail}`)
  })

/** Spans exported to the collector; the minimum level from OTEL_TRACE_EXPORTER_LEVEL. */
export const otlpTracerLayer = (settings: TelemetrySettings, resource: TelemetryResource): Layer.Layer<never> => {
  const traces = settings.traces
  if (traces === undefined) return Layer.empty
  const tracer = OtlpTracer.layer({
    url: traces.url,
    resource: resourceOf(settings, resource),
    headers: traces.headers,
    exportInterval: `${traces.scheduleDelayMillis} millis`,
    maxBatchSize: traces.maxBatchSize,
    shutdownTimeout: "1 second"
  }).pipe(Layer.provide(wireOf(traces, "trace")))
  const level = traces.level
  const withLevel = level === undefined ? tracer : Layer.merge(tracer, Layer.succeed(Tracer.MinimumTraceLevel, level))
  return withLevel as Layer.Layer<never>
}

/** A logger sending log records (with their trace and span id) to the collector, from `level` (OTEL_LOG_EXPORTER_LEVEL, else the log level) up. */
export const otlpLogger = (
  settings: TelemetrySettings,
  resource: TelemetryResource,
  level: LogLevel.LogLevel | undefined
): Effect.Effect<Logger.Logger<unknown, void> | undefined, never, Scope.Scope> => {
  const logs = settings.logs
  if (logs === undefined) return Effect.succeed(undefined)
  return Effect.gen(function*() {
    const context = yield* Layer.build(Layer.merge(OtlpExporter.layerFlusher, wireOf(logs, "log")))
    const inner = yield* OtlpLogger.make({
      url: logs.url,
      resource: resourceOf(settings, resource),
      headers: logs.headers,
      exportInterval: `${logs.scheduleDelayMillis} millis`,
      maxBatchSize: logs.maxBatchSize,
      shutdownTimeout: "1 second"
    }).pipe(Effect.provideContext(context))
    return level === undefined
      ? inner
      : Logger.make((options) => {
        if (LogLevel.isGreaterThanOrEqualTo(options.logLevel, level)) inner.log(options)
      })
  })
}
