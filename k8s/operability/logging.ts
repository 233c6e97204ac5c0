/**
 * Logging for both roles: structured JSON for clusters (one object per line, what log
 * pipelines parse) or logfmt text for people at a terminal, and a minimum level.
 */
import { Config, Effect, Layer, Logger, References } from "effect"
import type { Scope } from "effect"
import type { LogLevel } from "effect/LogLevel"
import * as LogLevels from "effect/LogLevel"
import { fileLogger } from "./fileLog.ts"
import type { RotationPeriod } from "./fileLog.ts"

export const LOG_FORMATS = ["json", "text"] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

/** Accepted spellings of LOG_LEVEL (the same as the built-in `--log-level` flag's). */
export const LOG_LEVELS = ["all", "trace", "debug", "info", "warn", "warning", "error", "fatal", "none"] as const
export type LogLevelName = (typeof LOG_LEVELS)[number]

const levels: Record<LogLevelName, LogLevel> = {
  all: "All", trace: "Trace", debug: "Debug", info: "Info", warn: "Warn", warning: "Warn", error: "Error", fatal: "Fatal", none: "None"
}

export const logLevelOf = (name: LogLevelName): LogLevel => levels[name]

/** How LOG_LEVEL is read: one of LOG_LEVELS, as written (the chart's schema offers the same list; a test compares them). */
export const logLevelConfig = Config.Literals(LOG_LEVELS, "LOG_LEVEL")
/** How LOG_FORMAT is read. */
export const logFormatConfig = Config.Literals(LOG_FORMATS, "LOG_FORMAT")

export const loggingLayer = (options: { readonly level: LogLevel; readonly format: LogFormat }): Layer.Layer<never> =>
  Layer.merge(
    Logger.layer([consoleLogger(options.format)]),
    Layer.succeed(References.MinimumLogLevel, options.level)
  )

const consoleLogger = (format: LogFormat) => format === "json" ? Logger.consoleJson : Logger.consoleLogFmt

/** Only entries at `level` or above reach `logger` (when the global minimum is lower for another destination). */
const atLeast = <M, O>(logger: Logger.Logger<M, O>, level: LogLevel, minimum: LogLevel): Logger.Logger<M, O | undefined> =>
  level === minimum ? logger : Logger.make((entry) => LogLevels.isGreaterThanOrEqualTo(entry.logLevel, level) ? logger.log(entry) : undefined)

/**
 * The roles' logging with upstream's destinations: the console (unless
 * CONSOLE_LOG_DISABLED), rolling files (FILE_LOG_DIRECTORY), an OTLP logger (when
 * exporting logs) — each at its own level; nothing below the least of them is formatted.
 */
export const sinksLoggingLayer = (options: {
  readonly sinks: LogSinks
  readonly filePrefix: string
  readonly otlp: { readonly logger: Effect.Effect<Logger.Logger<unknown, void> | undefined, never, Scope.Scope>; readonly level: LogLevel | undefined } | undefined
  readonly fallbackLevel: LogLevel
}): Layer.Layer<never> => {
  const { sinks } = options
  const minimum = minimumLevel([sinks.console?.level, sinks.file?.level, options.otlp ? (options.otlp.level ?? "All") : undefined], options.fallbackLevel)
  const loggers: Array<Effect.Effect<Logger.Logger<unknown, unknown> | undefined, never, Scope.Scope>> = []
  if (sinks.console) loggers.push(Effect.succeed(atLeast(consoleLogger(sinks.console.format), sinks.console.level, minimum)))
  if (sinks.file) {
    const file = sinks.file
    loggers.push(Effect.sync(() => fileLogger({ ...file, prefix: options.filePrefix })))
  }
  if (options.otlp) loggers.push(options.otlp.logger)
  return Layer.merge(
    Layer.unwrap(Effect.map(Effect.all(loggers), (built) =>
      Logger.layer(built.filter((logger): logger is Logger.Logger<unknown, unknown> => logger !== undefined)))),
    Layer.succeed(References.MinimumLogLevel, minimum)
  )
}

/** Where the roles log, each destination at its own level (operatorSettings.ts reads them). */
export interface LogSinks {
  readonly console: { readonly format: LogFormat; readonly level: LogLevel } | undefined
  readonly file: {
    readonly directory: string
    readonly rotation: RotationPeriod
    readonly maxFiles: number | undefined
    readonly level: LogLevel
  } | undefined
}

/** The least severe of the levels in use: below it nothing is logged anywhere. */
export const minimumLevel = (levels: ReadonlyArray<LogLevel | undefined>, fallback: LogLevel): LogLevel => {
  const used = levels.filter((level): level is LogLevel => level !== undefined)
  if (used.length === 0) return fallback
  return used.reduce((a, b) => LogLevels.isGreaterThan(a, b) ? b : a)
}
