/**
 * Which OTLP exports a role runs, read the upstream way and the standard way:
 *
 * - upstream (stackable-telemetry): OTEL_TRACE_EXPORTER_ENABLED / OTEL_LOG_EXPORTER_ENABLED
 *   (or --otel-trace-exporter-enabled / --otel-log-exporter-enabled) turn a signal on,
 *   OTEL_TRACE_EXPORTER_LEVEL / OTEL_LOG_EXPORTER_LEVEL set its level;
 * - standard (OpenTelemetry SDK environment): OTEL_TRACES_EXPORTER / OTEL_LOGS_EXPORTER =
 *   otlp turn it on, `none` (or OTEL_SDK_DISABLED=true) off; OTEL_EXPORTER_OTLP[_TRACES|_LOGS]
 *   _ENDPOINT, _HEADERS, _TIMEOUT, _PROTOCOL; OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
 *   (read by Effect's OtlpResource); OTEL_BSP_ / OTEL_BLRP_ queue, batch and delay sizes.
 *
 * Both off by default. We speak OTLP over HTTP only (Effect's exporters): `grpc` is refused
 * with what to set instead, and the default endpoint is the OTLP/HTTP one
 * (http://localhost:4318), where upstream's gRPC exporter defaults to :4317.
 * Pure: the environment comes in as a record, so every rule has a unit test.
 */
import type { LogLevel } from "effect/LogLevel"

export type Env = Readonly<Record<string, string | undefined>>

export interface SignalExport {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly protocol: "http/protobuf" | "http/json"
  readonly timeoutMillis: number
  readonly maxQueueSize: number
  readonly maxBatchSize: number
  readonly scheduleDelayMillis: number
  /** The least severe level exported (upstream's OTEL_*_EXPORTER_LEVEL); undefined: all. */
  readonly level: LogLevel | undefined
}

export interface TelemetrySettings {
  readonly traces: SignalExport | undefined
  readonly logs: SignalExport | undefined
  readonly serviceName: string
}

export class TelemetrySettingError extends Error {
  readonly _tag = "SettingRefused"
}

const DEFAULT_BASE = "http://localhost:4318"

const truthy = (name: string, value: string | undefined): boolean | undefined => {
  if (value === undefined || value === "") return undefined
  const v = value.trim().toLowerCase()
  if (v === "true" || v === "1" || v === "yes") return true
  if (v === "false" || v === "0" || v === "no") return false
  throw new TelemetrySettingError(`${name}=${value} is not a boolean; use true or false`)
}

const LEVELS: Record<string, LogLevel> = {
  trace: "Trace", debug: "Debug", info: "Info", warn: "Warn", warning: "Warn", error: "Error", off: "None", none: "None"
}

/**
 * Upstream's levels are tracing EnvFilter directives; a plain level is the same here, a
 * per-module directive (`info,kube=debug`) has no meaning in this operator's logs.
 */
export const levelSetting = (name: string, value: string | undefined): LogLevel | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const level = LEVELS[value.trim().toLowerCase()]
  if (level === undefined) {
    throw new TelemetrySettingError(
      `${name}=${value} is not supported: use one level (trace, debug, info, warn, error or off); per-module filter directives do not apply to this operator`
    )
  }
  return level
}

const positiveInt = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined || value.trim() === "") return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new TelemetrySettingError(`${name}=${value} must be a positive whole number`)
  return n
}

const headersOf = (name: string, value: string | undefined): Record<string, string> => {
  if (value === undefined || value.trim() === "") return {}
  const headers: Record<string, string> = {}
  for (const pair of value.split(",")) {
    if (pair.trim() === "") continue
    const at = pair.indexOf("=")
    if (at <= 0) throw new TelemetrySettingError(`${name}: "${pair}" is not key=value`)
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim())
  }
  return headers
}

const signalUrl = (env: Env, signal: "TRACES" | "LOGS"): string => {
  const specific = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]
  const raw = specific !== undefined && specific !== "" ? specific : undefined
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined && env.OTEL_EXPORTER_OTLP_ENDPOINT !== ""
    ? env.OTEL_EXPORTER_OTLP_ENDPOINT
    : DEFAULT_BASE
  const name = raw !== undefined ? `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT` : "OTEL_EXPORTER_OTLP_ENDPOINT"
  let url: URL
  try {
    url = new URL(raw ?? base)
  } catch {
    throw new TelemetrySettingError(`${name}=${raw ?? base} is not a URL; use e.g. http://otel-collector:4318`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TelemetrySettingError(`${name}=${url.toString()}: OTLP is exported over HTTP here; use an http:// or https:// URL of the collector's OTLP/HTTP port (4318)`)
  }
  // As the OpenTelemetry spec says: the signal-specific URL is used as given, the base one
  // gets /v1/<signal> appended.
  if (raw === undefined) url.pathname = `${url.pathname.replace(/\/$/u, "")}/v1/${signal.toLowerCase()}`
  return url.toString()
}

const protocolOf = (env: Env, signal: "TRACES" | "LOGS"): "http/protobuf" | "http/json" => {
  const name = env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL` : "OTEL_EXPORTER_OTLP_PROTOCOL"
  const value = env[name]
  if (value === undefined || value === "" || value === "http/protobuf") return "http/protobuf"
  if (value === "http/json") return "http/json"
  throw new TelemetrySettingError(
    `${name}=${value} is not supported: this operator exports OTLP over HTTP only; set http/protobuf (or unset it) and point the endpoint at the collector's OTLP/HTTP port (4318)`
  )
}

const exporterChoice = (env: Env, variable: string): boolean | undefined => {
  const value = env[variable]
  if (value === undefined || value.trim() === "") return undefined
  const list = value.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "")
  if (list.length === 1 && list[0] === "none") return false
  if (list.length === 1 && list[0] === "otlp") return true
  throw new TelemetrySettingError(`${variable}=${value} is not supported: use otlp or none`)
}

const signalExport = (
  env: Env,
  signal: "TRACES" | "LOGS",
  upstreamEnabled: boolean
): SignalExport | undefined => {
  const upstreamName = signal === "TRACES" ? "OTEL_TRACE_EXPORTER_ENABLED" : "OTEL_LOG_EXPORTER_ENABLED"
  const standardName = signal === "TRACES" ? "OTEL_TRACES_EXPORTER" : "OTEL_LOGS_EXPORTER"
  const standard = exporterChoice(env, standardName)
  if (standard === false && upstreamEnabled) {
    throw new TelemetrySettingError(`${upstreamName}=true contradicts ${standardName}=none; set one of them`)
  }
  if (!(upstreamEnabled || standard === true)) return undefined
  if (truthy("OTEL_SDK_DISABLED", env.OTEL_SDK_DISABLED) === true) return undefined
  if (env.OTEL_EXPORTER_OTLP_COMPRESSION || env[`OTEL_EXPORTER_OTLP_${signal}_COMPRESSION`]) {
    const value = env[`OTEL_EXPORTER_OTLP_${signal}_COMPRESSION`] || env.OTEL_EXPORTER_OTLP_COMPRESSION
    if (value !== "none") {
      throw new TelemetrySettingError(`OTEL_EXPORTER_OTLP_COMPRESSION=${value} is not supported: batches are sent uncompressed; unset it or set none`)
    }
  }
  const processor = signal === "TRACES" ? "BSP" : "BLRP"
  const timeoutName = env[`OTEL_EXPORTER_OTLP_${signal}_TIMEOUT`] ? `OTEL_EXPORTER_OTLP_${signal}_TIMEOUT` : "OTEL_EXPORTER_OTLP_TIMEOUT"
  const headersName = env[`OTEL_EXPORTER_OTLP_${signal}_HEADERS`] ? `OTEL_EXPORTER_OTLP_${signal}_HEADERS` : "OTEL_EXPORTER_OTLP_HEADERS"
  return {
    url: signalUrl(env, signal),
    headers: headersOf(headersName, env[headersName]),
    protocol: protocolOf(env, signal),
    timeoutMillis: positiveInt(timeoutName, env[timeoutName], 10_000),
    maxQueueSize: positiveInt(`OTEL_${processor}_MAX_QUEUE_SIZE`, env[`OTEL_${processor}_MAX_QUEUE_SIZE`], 2048),
    maxBatchSize: positiveInt(`OTEL_${processor}_MAX_EXPORT_BATCH_SIZE`, env[`OTEL_${processor}_MAX_EXPORT_BATCH_SIZE`], 512),
    scheduleDelayMillis: positiveInt(
      `OTEL_${processor}_SCHEDULE_DELAY`,
      env[`OTEL_${processor}_SCHEDULE_DELAY`],
      signal === "TRACES" ? 5000 : 1000
    ),
    level: levelSetting(
      signal === "TRACES" ? "OTEL_TRACE_EXPORTER_LEVEL" : "OTEL_LOG_EXPORTER_LEVEL",
      env[signal === "TRACES" ? "OTEL_TRACE_EXPORTER_LEVEL" : "OTEL_LOG_EXPORTER_LEVEL"]
    )
  }
}

const serviceNameOf = (env: Env): string => {
  if (env.OTEL_SERVICE_NAME) return env.OTEL_SERVICE_NAME
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? "").split(",")) {
    const at = pair.indexOf("=")
    if (at > 0 && decodeURIComponent(pair.slice(0, at).trim()) === "service.name") return decodeURIComponent(pair.slice(at + 1).trim())
  }
  return "listener-operator"
}

/**
 * The exports a role runs. `enabled` are upstream's switches (flag, else environment
 * variable, as the CLI resolved them). Throws TelemetrySettingError with one line.
 */
export const telemetrySettings = (env: Env, enabled: { readonly traces: boolean; readonly logs: boolean }): TelemetrySettings => ({
  traces: signalExport(env, "TRACES", enabled.traces),
  logs: signalExport(env, "LOGS", enabled.logs),
  serviceName: serviceNameOf(env)
})
