/**
 * Logging for both roles: structured JSON for clusters (one object per line, what log
 * pipelines parse) or logfmt text for people at a terminal, and a minimum level.
 */
import { Config, Layer, Logger, References } from "effect"
import type { LogLevel } from "effect/LogLevel"

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
    Logger.layer([options.format === "json" ? Logger.consoleJson : Logger.consoleLogFmt]),
    Layer.succeed(References.MinimumLogLevel, options.level)
  )
