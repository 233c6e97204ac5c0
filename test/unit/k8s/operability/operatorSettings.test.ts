// Upstream's console, file and end-of-support settings: the same meaning, or refused in one line.
import { test } from "node:test"
import assert from "node:assert/strict"
import { minimumLevel } from "../../../../k8s/operability/logging.ts"
import { logSinks } from "../../../../k8s/operability/operatorSettings.ts"
import type { UpstreamFlags } from "../../../../k8s/operability/operatorSettings.ts"

const none: UpstreamFlags = {
  consoleLogDisabled: false,
  consoleLogFormat: undefined,
  fileLogDirectory: undefined,
  fileLogRotationPeriod: undefined,
  fileLogMaxFiles: undefined,
  eosCheckMode: undefined,
  eosInterval: undefined,
  eosDisabled: false
}
const base = { level: "Info" as const, format: "json" as const }

test("by default: the console only, in our LOG_FORMAT at our LOG_LEVEL", () => {
  assert.deepEqual(logSinks({}, none, base), { console: { format: "json", level: "Info" }, file: undefined })
})

test("CONSOLE_LOG_DISABLED, CONSOLE_LOG_FORMAT (plain is our text) and CONSOLE_LOG_LEVEL", () => {
  assert.equal(logSinks({}, { ...none, consoleLogDisabled: true }, base).console, undefined)
  assert.deepEqual(logSinks({ CONSOLE_LOG_LEVEL: "debug" }, { ...none, consoleLogFormat: "plain" }, base).console, { format: "text", level: "Debug" })
  assert.equal(logSinks({}, { ...none, consoleLogFormat: "JSON" }, { ...base, format: "text" }).console?.format, "json")
  assert.throws(() => logSinks({}, { ...none, consoleLogFormat: "xml" }, base), /CONSOLE_LOG_FORMAT=xml is not supported: use plain or json/u)
})

test("FILE_LOG_DIRECTORY turns rolling files on; rotation (never by default), max files, FILE_LOG_LEVEL", () => {
  assert.deepEqual(logSinks({ FILE_LOG_LEVEL: "warn" }, { ...none, fileLogDirectory: "/logs", fileLogRotationPeriod: "Hourly", fileLogMaxFiles: 3 }, base).file, {
    directory: "/logs", rotation: "hourly", maxFiles: 3, level: "Warn"
  })
  assert.equal(logSinks({}, { ...none, fileLogDirectory: "/logs" }, base).file?.rotation, "never")
  assert.throws(() => logSinks({}, { ...none, fileLogRotationPeriod: "weekly" }, base), /use never, minutely, hourly or daily/u)
  assert.throws(() => logSinks({}, { ...none, fileLogDirectory: "/logs", fileLogMaxFiles: 0 }, base), /FILE_LOG_MAX_FILES=0 must be 1 or more/u)
})

test("end of support: EOS_DISABLED is accepted (there is no check); a check mode or interval is refused, saying to unset it", () => {
  assert.doesNotThrow(() => logSinks({}, { ...none, eosDisabled: true }, base))
  assert.throws(() => logSinks({}, { ...none, eosCheckMode: "offline" }, base), /^Error: EOS_CHECK_MODE=offline is not supported: .*unset it$|EOS_CHECK_MODE=offline is not supported: .*unset it/u)
  assert.throws(() => logSinks({}, { ...none, eosInterval: "1d" }, base), /EOS_INTERVAL=1d is not supported: .*unset it/u)
})

test("the global minimum is the least severe level any destination uses", () => {
  assert.equal(minimumLevel(["Warn", "Debug", undefined], "Info"), "Debug")
  assert.equal(minimumLevel([undefined], "Info"), "Info")
})
