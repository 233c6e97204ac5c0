/**
 * The composition root and command line: `crd`, `run controller`, `run node`, `demo`
 * (loaded by main.ts once the runtime is known to be new enough). Kept thin on purpose —
 * each role is a layer built in `k8s/roles/`; this file only reads settings (flag, else
 * environment variable, else default) and launches one of them.
 *
 * Exit codes: 0 after SIGTERM/SIGINT or a finished command; 2 for bad settings (a flag or
 * environment variable that is missing or invalid, a kubeconfig that cannot be read) with
 * one line naming what and why; 1 for anything else.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Config, Effect, Exit, Layer, Option, References, Result, Runtime } from "effect"
import { Command, Flag, GlobalFlag } from "effect/cli"
import type { LogLevel } from "effect/LogLevel"
import { OPERATOR_VERSION } from "./adapters/version.ts"
import { DEFAULT_CLUSTER_DOMAIN, DEFAULT_LISTENER_CLASS_PRESET, LISTENER_CLASS_PRESETS } from "./domain/constants.ts"
import type { KubeApi } from "./effects/shared/KubeApi.ts"
import { cliServicesLayer } from "./k8s/operability/cliServices.ts"
import { LOG_FORMATS, logFormatConfig, logLevelConfig, logLevelOf, sinksLoggingLayer } from "./k8s/operability/logging.ts"
import { logSinks } from "./k8s/operability/operatorSettings.ts"
import { telemetrySettings } from "./k8s/operability/telemetrySettings.ts"
import type { LogFormat } from "./k8s/operability/logging.ts"
import type { Readiness } from "./k8s/operability/probes.ts"

const VERSION = OPERATOR_VERSION

/**
 * A flag that falls back to its environment variable (read with `config`), its help text
 * naming that variable and the default, as `--help` shows them.
 */
const setting = <A>(flag: Flag.Flag<A>, env: string, config: (env: string) => Config.Config<A>, description: string, fallback: string) =>
  flag.pipe(Flag.withDescription(`${description} [env ${env}; default: ${fallback}]`), Flag.withFallbackConfig(config(env)))

const csiEndpoint = setting(Flag.String("csi-endpoint"), "CSI_ENDPOINT", Config.String, "Unix socket to serve CSI on (a path, or unix:// + absolute path)", "required")
const logFormat = setting(Flag.Literals("log-format", LOG_FORMATS), "LOG_FORMAT", () => logFormatConfig, "json (one object per line) or text (logfmt)", "json")
  .pipe(Flag.withDefault("json" as const))
const probePort = setting(Flag.Int("metrics-port"), "METRICS_PORT", Config.Int, "Port for /metrics, /healthz and /readyz; 0 disables the endpoint", "8080")
  .pipe(Flag.withDefault(8080))

const optionalString = (name: string, env: string, description: string) =>
  setting(Flag.String(name), env, Config.String, description, "unset").pipe(Flag.optional)
const upstreamBoolean = (name: string, env: string, description: string) =>
  setting(Flag.Boolean(name), env, Config.Boolean, description, "false").pipe(Flag.withDefault(false))

/**
 * Upstream's operator settings (operator-rs CommonOptions and TelemetryOptions), under
 * upstream's names, on both roles; k8s/operability/operatorSettings.ts reads them.
 */
const upstreamFlags = {
  consoleLogDisabled: upstreamBoolean("console-log-disabled", "CONSOLE_LOG_DISABLED", "Write no logs to the console"),
  consoleLogFormat: optionalString("console-log-format", "CONSOLE_LOG_FORMAT", "Console log format: plain or json (as LOG_FORMAT text|json)"),
  fileLogDirectory: optionalString("file-log-directory", "FILE_LOG_DIRECTORY", "Also write JSON logs to rolling files <role>.<period>.tracing-rs.json in this directory"),
  fileLogRotationPeriod: optionalString("file-log-rotation-period", "FILE_LOG_ROTATION_PERIOD", "Start a new log file: never, minutely, hourly or daily (default never)"),
  fileLogMaxFiles: setting(Flag.Int("file-log-max-files"), "FILE_LOG_MAX_FILES", Config.Int, "Keep at most this many log files (older ones are deleted)", "unset: keep all")
    .pipe(Flag.optional),
  otelTraceExporterEnabled: upstreamBoolean("otel-trace-exporter-enabled", "OTEL_TRACE_EXPORTER_ENABLED", "Export traces over OTLP/HTTP (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)"),
  otelLogExporterEnabled: upstreamBoolean("otel-log-exporter-enabled", "OTEL_LOG_EXPORTER_ENABLED", "Export logs over OTLP/HTTP (OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)"),
  eosCheckMode: optionalString("eos-check-mode", "EOS_CHECK_MODE", "Refused: this operator has no end-of-support check"),
  eosInterval: optionalString("eos-interval", "EOS_INTERVAL", "Refused: this operator has no end-of-support check"),
  eosDisabled: upstreamBoolean("eos-disabled", "EOS_DISABLED", "Accepted for upstream compatibility: there is no end-of-support check to disable"),
  disableCrdMaintenance: upstreamBoolean("disable-crd-maintenance", "DISABLE_CRD_MAINTENANCE", "Upstream's name for --no-manage-crds (the node role never maintains CRDs)")
}

type UpstreamFlagValues = {
  readonly [K in keyof typeof upstreamFlags]: (typeof upstreamFlags)[K] extends Flag.Flag<infer A> ? A : never
}

/** The built-in `--log-level` flag wins; else LOG_LEVEL; else info. */
const effectiveLogLevel = Effect.gen(function*() {
  const fromFlag = yield* GlobalFlag.LogLevel
  if (Option.isSome(fromFlag)) return fromFlag.value
  const fromEnv = yield* Config.option(logLevelConfig)
  return Option.isSome(fromEnv) ? logLevelOf(fromEnv.value) : "Info"
})

/**
 * A role runs until SIGTERM/SIGINT; its probe endpoint and logging wrap it. The role, the
 * Kubernetes client and the HTTP server are imported only here, so `--help`, `crd` and
 * the other role never load them (docs/performance.md, footprint).
 */
const launchRole = (
  role: () => Promise<Layer.Layer<never, unknown, KubeApi | Readiness>>,
  options: { readonly port: number; readonly format: LogFormat; readonly roleName: string; readonly upstream: UpstreamFlagValues }
) =>
  Effect.gen(function*() {
    const level = yield* effectiveLogLevel
    // Settings first: a refused one stops the role before it loads or connects anything.
    const observability = yield* Effect.try({
      try: () => observabilityOf(options, level),
      catch: (error) => error
    })
    const [layer, { KubeApiHttp }, { probeServerLayer, Readiness }, { kubeApiUsable }, telemetry] = yield* Effect.promise(() =>
      Promise.all([
        role(),
        import("./adapters/KubeApiHttp.ts"),
        import("./k8s/operability/probes.ts"),
        import("./k8s/roles/kubeReadiness.ts"),
        // the OTLP exporters are loaded only when an export is on
        observability.telemetry.traces || observability.telemetry.logs ? import("./k8s/operability/telemetry.ts") : undefined
      ])
    )
    const resource = { role: options.roleName, version: VERSION }
    // Nothing exported and no log file to correlate: spans are not even made (no-op spans),
    // so turning telemetry off costs nothing per request (bench/telemetry.bench.ts).
    const tracing = telemetry
      ? telemetry.otlpTracerLayer(observability.telemetry, resource)
      : observability.sinks.file === undefined
      ? Layer.succeed(References.TracerEnabled, false)
      : Layer.empty
    const logging = sinksLoggingLayer({
      sinks: observability.sinks,
      filePrefix: `listener-operator-${options.roleName}`,
      otlp: telemetry && observability.telemetry.logs
        ? {
          logger: telemetry.otlpLogger(observability.telemetry, resource, observability.otlpLogLevel),
          level: observability.otlpLogLevel
        }
        : undefined,
      fallbackLevel: level
    })
    const probes = options.port > 0 ? probeServerLayer(options.port) : Layer.empty
    // One line at start when the API server cannot be reached (the role keeps running and
    // retrying; readiness says it is not ready until the server answers).
    const startupCheck = Layer.effectDiscard(Effect.forkScoped(kubeApiUsable.pipe(
      Effect.catch((error) =>
        Effect.logWarning(`the Kubernetes API cannot be reached yet: ${error.message}; retrying`))
    )))
    return yield* Layer.launch(Layer.mergeAll(layer, probes, startupCheck).pipe(
      Layer.provide(Layer.mergeAll(KubeApiHttp.layer, Readiness.layer))
    )).pipe(Effect.provide(tracing), Effect.provide(logging))
  })

/** Where logs and traces go, from our settings and upstream's; throws one line for a refused one. */
const observabilityOf = (options: { readonly format: LogFormat; readonly upstream: UpstreamFlagValues }, level: LogLevel) => {
  const { upstream } = options
  const env = process.env
  const sinks = logSinks(env, {
    consoleLogDisabled: upstream.consoleLogDisabled,
    consoleLogFormat: Option.getOrUndefined(upstream.consoleLogFormat),
    fileLogDirectory: Option.getOrUndefined(upstream.fileLogDirectory),
    fileLogRotationPeriod: Option.getOrUndefined(upstream.fileLogRotationPeriod),
    fileLogMaxFiles: Option.getOrUndefined(upstream.fileLogMaxFiles),
    eosCheckMode: Option.getOrUndefined(upstream.eosCheckMode),
    eosInterval: Option.getOrUndefined(upstream.eosInterval),
    eosDisabled: upstream.eosDisabled
  }, { level, format: options.format })
  const telemetry = telemetrySettings(env, { traces: upstream.otelTraceExporterEnabled, logs: upstream.otelLogExporterEnabled })
  return { sinks, telemetry, otlpLogLevel: telemetry.logs?.level ?? level }
}

const runController = Command.make("controller", {
  csiEndpoint,
  clusterDomain: setting(Flag.String("cluster-domain"), "KUBERNETES_CLUSTER_DOMAIN", Config.String, "DNS domain of the cluster, used in ClusterIP hostnames", DEFAULT_CLUSTER_DOMAIN)
    .pipe(Flag.withDefault(DEFAULT_CLUSTER_DOMAIN)),
  preset: setting(
    Flag.Literals("listener-class-preset", LISTENER_CLASS_PRESETS),
    "LISTENER_CLASS_PRESET",
    (env) => Config.Literals(LISTENER_CLASS_PRESETS, env),
    "Which ListenerClasses to create at start-up if missing",
    DEFAULT_LISTENER_CLASS_PRESET
  ).pipe(Flag.withDefault(DEFAULT_LISTENER_CLASS_PRESET)),
  leaderElectionNamespace: setting(Flag.String("leader-election-namespace"), "POD_NAMESPACE", Config.String, "Namespace of the leader-election Lease", "unset: no leader election")
    .pipe(Flag.optional),
  instance: setting(Flag.String("instance"), "POD_NAME", Config.String, "Name of this replica (the Pod name)", "listener-operator-controller")
    .pipe(Flag.withDefault("listener-operator-controller")),
  manageCrds: setting(
    Flag.Boolean("manage-crds"),
    "MANAGE_CRDS",
    Config.Boolean,
    "Keep the CRDs current at start (--no-manage-crds: you apply them yourself, e.g. with GitOps)",
    "true"
  ).pipe(Flag.withDefault(true)),
  logFormat,
  probePort,
  ...upstreamFlags
}, (flags) =>
  launchRole(async () => (await import("./k8s/composition/controllerRoleLayer.ts")).controllerRoleLayer({
    csiEndpoint: flags.csiEndpoint,
    clusterDomain: flags.clusterDomain,
    preset: flags.preset,
    manageCrds: flags.manageCrds && !flags.disableCrdMaintenance,
    vendorVersion: VERSION,
    instance: flags.instance,
    leaderElection: flags.leaderElectionNamespace._tag === "Some"
      ? { namespace: flags.leaderElectionNamespace.value, name: "listener-operator-controller" }
      : undefined
  }), { port: flags.probePort, format: flags.logFormat, roleName: "controller", upstream: flags })).pipe(
  Command.withDescription(
    "The controller role: the Listener controller (one Service per Listener, addresses in its status), the CSI Identity and Controller services for the csi-provisioner sidecar, and the preset ListenerClasses; keeps the CRDs current at start. Runs as a Deployment; one replica leads."
  )
)

const runNode = Command.make("node", {
  csiEndpoint,
  nodeName: setting(Flag.String("node-name"), "KUBERNETES_NODE_NAME", Config.String, "The Kubernetes Node this plugin serves", "required"),
  pluginRegistrationDir: setting(
    Flag.String("plugin-registration-dir"),
    "PLUGIN_REGISTRATION_DIR",
    Config.String,
    "The kubelet's plugins_registry directory: register with the kubelet from this process (no node-driver-registrar)",
    "unset: off"
  ).pipe(Flag.optional),
  kubeletRegistrationPath: setting(Flag.String("kubelet-registration-path"), "DRIVER_REG_SOCK_PATH", Config.String, "The CSI socket's path as the kubelet sees it on the node", "the CSI endpoint's path")
    .pipe(Flag.optional),
  kubeletPodsDir: setting(
    Flag.String("kubelet-pods-dir"),
    "KUBELET_PODS_DIR",
    Config.String,
    "The kubelet's pods directory as this process sees it: NodePublish/NodeUnpublishVolume target paths outside it are refused",
    "unset: any absolute path"
  ).pipe(Flag.optional),
  addressRefreshSeconds: setting(
    Flag.Int("address-refresh-seconds"),
    "ADDRESS_REFRESH_SECONDS",
    Config.Int,
    "Live refresh: published volumes follow watched changes of their addresses at once; in addition all are re-checked from the watch caches this often (a resync, no API request); 0: no resync, the watch-driven refresh stays on",
    "30"
  ).pipe(Flag.withDefault(30)),
  logFormat,
  probePort,
  ...upstreamFlags
}, (flags) =>
  launchRole(async () => (await import("./k8s/composition/nodeRoleLayer.ts")).nodeRoleLayer({
    csiEndpoint: flags.csiEndpoint,
    nodeName: flags.nodeName,
    vendorVersion: VERSION,
    addressRefreshInterval: `${Math.max(0, flags.addressRefreshSeconds)} seconds`,
    kubeletPodsDir: Option.getOrUndefined(flags.kubeletPodsDir),
    registration: Option.isSome(flags.pluginRegistrationDir)
      ? {
        registrationDir: flags.pluginRegistrationDir.value,
        kubeletCsiEndpoint: Option.getOrElse(flags.kubeletRegistrationPath, () => flags.csiEndpoint.replace(/^unix:\/\//u, ""))
      }
      : undefined
  }), {
    port: flags.probePort,
    format: flags.logFormat,
    roleName: "node",
    upstream: flags
  })).pipe(
  Command.withDescription(
    "The node role: the CSI Identity and Node services for one node (the kubelet calls NodePublishVolume to write a Pod's addresses into its listener volume), with live refresh of published volumes. Runs as a DaemonSet, registered with the kubelet by node-driver-registrar or by itself (--plugin-registration-dir)."
  )
)

const run = Command.make("run").pipe(
  Command.withDescription("Run one role of the operator"),
  Command.withSubcommands([runController, runNode])
)

const crd = Command.make("crd", {}, () =>
  Effect.promise(() => import("./k8s/crds.ts")).pipe(Effect.map(({ crdYaml }) => process.stdout.write(crdYaml())))).pipe(
  Command.withDescription("Print the CustomResourceDefinitions as YAML")
)

// Loaded on demand: the demo drives an in-memory cluster that a deployed operator never
// needs. The demos on a local control plane or real nodes need the test tools and run from
// a checkout only (`npm run demo -- --cluster`, test/demo/).
const demo = Command.make("demo", {
  verbose: Flag.Boolean("verbose").pipe(
    Flag.withDescription("Show the roles' logs on stderr instead of writing them to a file"),
    Flag.withDefault(false)
  )
}, ({ verbose }) =>
  Effect.flatMap(Effect.promise(() => import("./demo/memoryDemo.ts")), (module) => module.runMemoryDemoOnStdout(module.demoLogFile(verbose)))
).pipe(
  Command.withDescription("Show per-replica addresses on an in-memory cluster, in seconds (from a checkout, `npm run demo -- --cluster` or `-- --real-nodes` runs it on real clusters)")
)

/** Failures that mean "the settings are wrong": the CLI's own parse errors and an unreadable kubeconfig. */
const SETTINGS_ERRORS: ReadonlySet<string> = new Set([
  "MissingOption", "MissingArgument", "InvalidValue", "UnrecognizedOption", "DuplicateOption", "UnexpectedArgument",
  "UnknownSubcommand", "ValidationError", "ShowHelp", "KubeConfigError", "RoleSettingMissing", "SettingRefused"
])

const settingsError = (cause: Cause.Cause<unknown>): { readonly _tag: string; readonly message: string } | undefined => {
  const found = Cause.findError(cause)
  if (!Result.isSuccess(found)) return undefined
  const error = found.success as { readonly _tag?: unknown; readonly message?: unknown }
  return typeof error?._tag === "string" && SETTINGS_ERRORS.has(error._tag)
    ? { _tag: error._tag, message: String(error.message) }
    : undefined
}

Command.make("listener-operator").pipe(
  Command.withSubcommands([crd, run, demo]),
  Command.run({ version: VERSION }),
  Effect.provide(cliServicesLayer),
  NodeRuntime.runMain({
    // Reported here instead: a bad setting is one line, not a stack trace.
    disableErrorReporting: true,
    teardown: (exit, onExit) => {
      // SIGTERM/SIGINT end the roles gracefully: that is a clean exit, not a failure.
      if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) return onExit(0)
      const bad = settingsError(exit.cause)
      if (bad !== undefined) {
        // The CLI already printed its own parse errors with the usage.
        if (bad._tag === "KubeConfigError" || bad._tag === "RoleSettingMissing" || bad._tag === "SettingRefused") process.stderr.write(`listener-operator: ${bad.message}\n`)
        return onExit(2)
      }
      process.stderr.write(`${Cause.pretty(exit.cause)}\n`)
      return Runtime.defaultTeardown(exit, onExit)
    }
  })
)
