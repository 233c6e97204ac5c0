/**
 * Rolling log files for log shippers, as upstream writes them (stackable-telemetry on
 * tracing-appender): one JSON object per line in `<prefix>.<period>.tracing-rs.json`
 * (`<prefix>.tracing-rs.json` when never rotated), the period in UTC as `YYYY-MM-DD`
 * (daily), `YYYY-MM-DD-HH` (hourly) or `YYYY-MM-DD-HH-mm` (minutely); at each new file the
 * oldest are deleted so at most `maxFiles` remain. The line carries tracing-subscriber's
 * JSON fields (`timestamp`, `level`, `fields.message`, `target`), which upstream's log
 * pipeline (Vector) parses, plus the trace and span id of the work it belongs to.
 *
 * Our own small file rather than a library: the file names must be upstream's exactly
 * (shippers match them), and a synchronous append per line needs no buffering or stream
 * whose loss at a crash would hide the last lines.
 */
import { appendFileSync, mkdirSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { Logger, References } from "effect"
import type { LogLevel } from "effect/LogLevel"
import * as LogLevels from "effect/LogLevel"

export const ROTATION_PERIODS = ["never", "minutely", "hourly", "daily"] as const
export type RotationPeriod = (typeof ROTATION_PERIODS)[number]

export const FILE_LOG_SUFFIX = "tracing-rs.json"

const pad = (n: number) => String(n).padStart(2, "0")

/** The file a line written at `at` goes to. */
export const fileNameAt = (prefix: string, rotation: RotationPeriod, at: Date): string => {
  const day = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`
  switch (rotation) {
    case "never":
      return `${prefix}.${FILE_LOG_SUFFIX}`
    case "daily":
      return `${prefix}.${day}.${FILE_LOG_SUFFIX}`
    case "hourly":
      return `${prefix}.${day}-${pad(at.getUTCHours())}.${FILE_LOG_SUFFIX}`
    case "minutely":
      return `${prefix}.${day}-${pad(at.getUTCHours())}-${pad(at.getUTCMinutes())}.${FILE_LOG_SUFFIX}`
  }
}

export interface RollingFileOptions {
  readonly directory: string
  readonly prefix: string
  readonly rotation: RotationPeriod
  /** Keep at most this many of our files (the current one included); undefined: keep all. */
  readonly maxFiles: number | undefined
}

/** Appends lines to the current period's file; prunes old files when a period begins. */
export const rollingFile = (options: RollingFileOptions) => {
  mkdirSync(options.directory, { recursive: true })
  let current = ""
  const prune = () => {
    if (options.maxFiles === undefined) return
    const ours = readdirSync(options.directory)
      .filter((name) => name.startsWith(`${options.prefix}.`) && name.endsWith(`.${FILE_LOG_SUFFIX}`))
      .sort()
    // names sort by their period: the oldest come first
    for (const old of ours.slice(0, Math.max(0, ours.length - options.maxFiles))) {
      rmSync(join(options.directory, old), { force: true })
    }
  }
  return {
    write: (line: string, at: Date): void => {
      const name = fileNameAt(options.prefix, options.rotation, at)
      appendFileSync(join(options.directory, name), `${line}\n`)
      if (name !== current) {
        current = name
        prune()
      }
    }
  }
}

const levelName = (level: LogLevel): string => level === "Warn" ? "WARN" : level.toUpperCase()

const messageOf = (message: unknown): string => {
  const parts = Array.isArray(message) ? message : [message]
  return parts.map((part) => typeof part === "string" ? part : JSON.stringify(part)).join(" ")
}

/** An Effect logger writing upstream's JSON lines to the rolling files, from `level` up. */
export const fileLogger = (options: RollingFileOptions & { readonly level: LogLevel | undefined }) => {
  const file = rollingFile(options)
  return Logger.make((entry) => {
    if (options.level !== undefined && !LogLevels.isGreaterThanOrEqualTo(entry.logLevel, options.level)) return
    const fields: Record<string, unknown> = { message: messageOf(entry.message) }
    for (const [key, value] of Object.entries(entry.fiber.getRef(References.CurrentLogAnnotations))) fields[key] = value
    const line: Record<string, unknown> = {
      timestamp: entry.date.toISOString(),
      level: levelName(entry.logLevel),
      fields,
      target: "listener_operator"
    }
    const span = entry.fiber.cache.span
    if (span !== undefined && span.traceId !== "noop") {
      line.trace_id = span.traceId
      line.span_id = span.spanId
    }
    try {
      file.write(JSON.stringify(line), entry.date)
    } catch {
      // a full or read-only disk must not stop the operator; the console still logs
    }
  })
}
