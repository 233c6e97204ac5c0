// Which OTLP exports run, read the upstream way (OTEL_*_EXPORTER_ENABLED) and the standard
// way (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_*), and what is refused in one line.
import { test } from "node:test"
import assert from "node:assert/strict"
import { telemetrySettings } from "../../../../k8s/operability/telemetrySettings.ts"

const off = { traces: false, logs: false }

test("off by default, even with an endpoint set", () => {
  const settings = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, off)
  assert.equal(settings.traces, undefined)
  assert.equal(settings.logs, undefined)
})

test("upstream's switches turn each signal on; the base endpoint gets /v1/<signal>, the specific one is used as given", () => {
  const settings = telemetrySettings({
    OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/",
    OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "http://logs:9999/custom"
  }, { traces: true, logs: true })
  assert.equal(settings.traces?.url, "http://collector:4318/v1/traces")
  assert.equal(settings.logs?.url, "http://logs:9999/custom")
  assert.equal(settings.traces?.protocol, "http/protobuf")
})

test("without any endpoint, the OTLP/HTTP default http://localhost:4318", () => {
  assert.equal(telemetrySettings({}, { traces: true, logs: false }).traces?.url, "http://localhost:4318/v1/traces")
})

test("the standard switches: OTEL_TRACES_EXPORTER=otlp on, none off, OTEL_SDK_DISABLED wins", () => {
  assert.ok(telemetrySettings({ OTEL_TRACES_EXPORTER: "otlp" }, off).traces)
  assert.ok(telemetrySettings({ OTEL_LOGS_EXPORTER: "otlp" }, off).logs)
  assert.equal(telemetrySettings({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SDK_DISABLED: "true" }, off).traces, undefined)
  assert.throws(() => telemetrySettings({ OTEL_TRACES_EXPORTER: "none" }, { traces: true, logs: false }), /contradicts OTEL_TRACES_EXPORTER=none/u)
  assert.throws(() => telemetrySettings({ OTEL_TRACES_EXPORTER: "zipkin" }, off), /OTEL_TRACES_EXPORTER=zipkin is not supported: use otlp or none/u)
})

test("headers, timeout, queue and batch sizes, schedule delay and level are read per signal", () => {
  const settings = telemetrySettings({
    OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20x,tenant=a",
    OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "2500",
    OTEL_BSP_MAX_QUEUE_SIZE: "100",
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "10",
    OTEL_BSP_SCHEDULE_DELAY: "200",
    OTEL_BLRP_SCHEDULE_DELAY: "300",
    OTEL_TRACE_EXPORTER_LEVEL: "debug",
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json"
  }, { traces: true, logs: true })
  assert.deepEqual(settings.traces?.headers, { authorization: "Bearer x", tenant: "a" })
  assert.equal(settings.traces?.timeoutMillis, 2500)
  assert.equal(settings.logs?.timeoutMillis, 10_000)
  assert.equal(settings.traces?.maxQueueSize, 100)
  assert.equal(settings.traces?.maxBatchSize, 10)
  assert.equal(settings.traces?.scheduleDelayMillis, 200)
  assert.equal(settings.logs?.scheduleDelayMillis, 300)
  assert.equal(settings.traces?.level, "Debug")
  assert.equal(settings.logs?.level, undefined)
  assert.equal(settings.logs?.protocol, "http/json")
})

test("service name: OTEL_SERVICE_NAME, else service.name of OTEL_RESOURCE_ATTRIBUTES, else listener-operator", () => {
  assert.equal(telemetrySettings({ OTEL_SERVICE_NAME: "a", OTEL_RESOURCE_ATTRIBUTES: "service.name=b" }, off).serviceName, "a")
  assert.equal(telemetrySettings({ OTEL_RESOURCE_ATTRIBUTES: "x=1,service.name=b" }, off).serviceName, "b")
  assert.equal(telemetrySettings({}, off).serviceName, "listener-operator")
})

test("refused in one line, saying what to use instead: gRPC, compression, a bad URL, a filter directive, a bad number", () => {
  const on = { traces: true, logs: true }
  assert.throws(() => telemetrySettings({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, on), /OTLP over HTTP only; set http\/protobuf/u)
  assert.throws(() => telemetrySettings({ OTEL_EXPORTER_OTLP_COMPRESSION: "gzip" }, on), /unset it or set none/u)
  assert.throws(() => telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4317" }, on), /OTEL_EXPORTER_OTLP_ENDPOINT=.*(not a URL|http:\/\/ or https:\/\/)/u)
  assert.throws(() => telemetrySettings({ OTEL_LOG_EXPORTER_LEVEL: "info,kube=debug" }, on), /use one level/u)
  assert.throws(() => telemetrySettings({ OTEL_BSP_MAX_QUEUE_SIZE: "-1" }, on), /positive whole number/u)
  // a refused setting of a signal that is off does not matter
  assert.doesNotThrow(() => telemetrySettings({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, off))
})
