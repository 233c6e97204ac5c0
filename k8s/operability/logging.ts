/**
 * Logging for both roles: structured JSON for clusters (one object per line, what log
 * pipelines parse) or logfmt text for people at a terminal, and a minimum level.
 */
import { Layer, Logger, References } from "effect"
import type { LogLevel } from "effect/LogLevel"

export const LOG_FORMATS = ["json", "text"] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error"] as const
export type LogLevelName = (typeof LOG_LEVELS)[number]

const levels: Record<LogLevelName, LogLevel> = { trace: "Trace", debug: "Debug", info: "Info", warn: "Warn", error: "Error" }

export const loggingLayer = (options: { readonly level: LogLevelName; readonly format: LogFormat }): Layer.Layer<never> =>
  Layer.merge(
    Logger.layer([options.format === "json" ? Logger.consoleJson : Logger.consoleLogFmt]),
    Layer.succeed(References.MinimumLogLevel, levels[options.level])
  )
