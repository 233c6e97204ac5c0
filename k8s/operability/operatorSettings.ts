/**
 * Upstream's operator settings (operator-rs CommonOptions, stackable-telemetry
 * TelemetryOptions, the end-of-support checker) read with the same meaning, or refused in
 * one line that says what to use instead (docs/migration.md, "Settings"). Pure: the CLI
 * hands in what its flags (else environment variables) resolved to, and the environment
 * for the variables upstream reads without a flag (CONSOLE_LOG_LEVEL, FILE_LOG_LEVEL).
 */
import type { LogLevel } from "effect/LogLevel"
import { ROTATION_PERIODS } from "./fileLog.ts"
import type { RotationPeriod } from "./fileLog.ts"
import type { LogFormat, LogSinks } from "./logging.ts"
import { levelSetting, TelemetrySettingError } from "./telemetrySettings.ts"
import type { Env } from "./telemetrySettings.ts"

export interface UpstreamFlags {
  readonly consoleLogDisabled: boolean
  readonly consoleLogFormat: string | undefined
  readonly fileLogDirectory: string | undefined
  readonly fileLogRotationPeriod: string | undefined
  readonly fileLogMaxFiles: number | undefined
  readonly eosCheckMode: string | undefined
  readonly eosInterval: string | undefined
  readonly eosDisabled: boolean
}


const consoleFormat = (value: string | undefined, fallback: LogFormat): LogFormat => {
  if (value === undefined || value === "") return fallback
  switch (value.toLowerCase()) {
    case "plain":
      return "text"
    case "json":
      return "json"
    default:
      throw new TelemetrySettingError(`CONSOLE_LOG_FORMAT=${value} is not supported: use plain or json (LOG_FORMAT=text|json says the same)`)
  }
}

const rotationOf = (value: string | undefined): RotationPeriod => {
  if (value === undefined || value === "") return "never"
  const lower = value.toLowerCase() as RotationPeriod
  if (!ROTATION_PERIODS.includes(lower)) {
    throw new TelemetrySettingError(`FILE_LOG_ROTATION_PERIOD=${value} is not supported: use never, minutely, hourly or daily`)
  }
  return lower
}

/**
 * Where logs go. `level` is the operator's own LOG_LEVEL / --log-level (default info);
 * CONSOLE_LOG_LEVEL and FILE_LOG_LEVEL set one destination's level, as upstream's do.
 */
export const logSinks = (env: Env, flags: UpstreamFlags, base: { readonly level: LogLevel; readonly format: LogFormat }): LogSinks => {
  refuseEndOfSupportCheck(flags)
  const consoleLevel = levelSetting("CONSOLE_LOG_LEVEL", env.CONSOLE_LOG_LEVEL) ?? base.level
  const fileLevel = levelSetting("FILE_LOG_LEVEL", env.FILE_LOG_LEVEL) ?? base.level
  if (flags.fileLogMaxFiles !== undefined && !(flags.fileLogMaxFiles > 0)) {
    throw new TelemetrySettingError(`FILE_LOG_MAX_FILES=${flags.fileLogMaxFiles} must be 1 or more (unset: keep every file)`)
  }
  const rotation = rotationOf(flags.fileLogRotationPeriod)
  const format = consoleFormat(flags.consoleLogFormat, base.format)
  return {
    console: flags.consoleLogDisabled ? undefined : { format, level: consoleLevel },
    file: flags.fileLogDirectory === undefined || flags.fileLogDirectory === ""
      ? undefined
      : { directory: flags.fileLogDirectory, rotation, maxFiles: flags.fileLogMaxFiles, level: fileLevel }
  }
}


/**
 * Upstream warns when its build is more than a year old. Ours has no support window to
 * check against, so EOS_DISABLED (true or false) changes nothing and is accepted; asking
 * for a check mode or interval is refused rather than silently ignored.
 */
const refuseEndOfSupportCheck = (flags: UpstreamFlags): void => {
  if (flags.eosCheckMode !== undefined && flags.eosCheckMode !== "") {
    throw new TelemetrySettingError(
      `EOS_CHECK_MODE=${flags.eosCheckMode} is not supported: this operator has no end-of-support check (its releases carry no support window); unset it`
    )
  }
  if (flags.eosInterval !== undefined && flags.eosInterval !== "") {
    throw new TelemetrySettingError(
      `EOS_INTERVAL=${flags.eosInterval} is not supported: this operator has no end-of-support check (its releases carry no support window); unset it`
    )
  }
}
