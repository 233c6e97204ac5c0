// Rolling log files named as upstream's (tracing-appender) so log shippers find them:
// one JSON line per entry in tracing-subscriber's shape, old files pruned to FILE_LOG_MAX_FILES.
import { test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync } from "node:fs"
import { Effect, Logger, References } from "effect"
import { fileLogger, fileNameAt, rollingFile } from "../../../../k8s/operability/fileLog.ts"
import { withTempDir } from "../../withTempDir.ts"

const at = new Date(Date.UTC(2026, 10, 27, 4, 5, 6))

test("file names per rotation period, in UTC", () => {
  assert.equal(fileNameAt("p", "never", at), "p.tracing-rs.json")
  assert.equal(fileNameAt("p", "daily", at), "p.2026-11-27.tracing-rs.json")
  assert.equal(fileNameAt("p", "hourly", at), "p.2026-11-27-04.tracing-rs.json")
  assert.equal(fileNameAt("p", "minutely", at), "p.2026-11-27-04-05.tracing-rs.json")
})

test("a new period starts a new file and only the newest FILE_LOG_MAX_FILES remain (others' files untouched)", () =>
  withTempDir("filelog-", async (dir) => {
    const file = rollingFile({ directory: dir, prefix: "op", rotation: "minutely", maxFiles: 2 })
    file.write("{}", new Date(Date.UTC(2026, 0, 1, 0, 0)))
    file.write("{}", new Date(Date.UTC(2026, 0, 1, 0, 0, 30)))
    file.write("{}", new Date(Date.UTC(2026, 0, 1, 0, 1)))
    file.write("{}", new Date(Date.UTC(2026, 0, 1, 0, 2)))
    const other = rollingFile({ directory: dir, prefix: "other", rotation: "never", maxFiles: 1 })
    other.write("{}", at)
    assert.deepEqual(readdirSync(dir).sort(), [
      "op.2026-01-01-00-01.tracing-rs.json",
      "op.2026-01-01-00-02.tracing-rs.json",
      "other.tracing-rs.json"
    ])
  }))

test("each entry is one JSON line with timestamp, level, fields.message and annotations, target, and the trace and span id", () =>
  withTempDir("filelog-", async (dir) => {
    const logger = fileLogger({ directory: dir, prefix: "op", rotation: "never", maxFiles: undefined, level: "Info" })
    const spanIds = await Effect.runPromise(
      Effect.gen(function*() {
        yield* Effect.logDebug("below the file's level")
        yield* Effect.logInfo("reconciled").pipe(Effect.annotateLogs({ listener: "ns/l" }))
        const span = yield* Effect.currentSpan
        return { traceId: span.traceId, spanId: span.spanId }
      }).pipe(
        Effect.withSpan("work"),
        Effect.provide(Logger.layer([logger])),
        Effect.provideService(References.MinimumLogLevel, "All")
      )
    )
    const lines = readFileSync(`${dir}/op.tracing-rs.json`, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    assert.equal(lines.length, 1)
    const [line] = lines
    assert.equal(line?.level, "INFO")
    assert.deepEqual(line?.fields, { message: "reconciled", listener: "ns/l" })
    assert.equal(line?.target, "listener_operator")
    assert.match(String(line?.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/u)
    assert.equal(line?.trace_id, spanIds.traceId)
    assert.equal(line?.span_id, spanIds.spanId)
  }))
