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
import { Cause, Config, Effect, Exit, Layer, Option, Result, Runtime } from "effect"
import { Command, Flag, GlobalFlag } from "effect/cli"
import { OPERATOR_VERSION } from "./adapters/version.ts"
import { DEFAULT_CLUSTER_DOMAIN, DEFAULT_LISTENER_CLASS_PRESET, LISTENER_CLASS_PRESETS } from "./domain/constants.ts"
import type { KubeApi } from "./effects/shared/KubeApi.ts"
import { cliServicesLayer } from "./k8s/operability/cliServices.ts"
import { LOG_FORMATS, LOG_LEVELS, loggingLayer, logLevelOf } from "./k8s/operability/logging.ts"
import type { LogFormat } from "./k8s/operability/logging.ts"
import type { Readiness } from "./k8s/operability/probes.ts"

const VERSION = OPERATOR_VERSION

/** A flag's help text with its environment variable and default, as `--help` shows them. */
const setting = (description: string, env: string, fallback: string): string => `${description} [env ${env}; default: ${fallback}]`

const csiEndpoint = Flag.String("csi-endpoint").pipe(
  Flag.withDescription(setting("Unix socket to serve CSI on (a path, or unix:// + absolute path)", "CSI_ENDPOINT", "required")),
  Flag.withFallbackConfig(Config.String("CSI_ENDPOINT"))
)
const logFormat = Flag.Literals("log-format", LOG_FORMATS).pipe(
  Flag.withDescription(setting("json (one object per line) or text (logfmt)", "LOG_FORMAT", "json")),
  Flag.withFallbackConfig(Config.Literals(LOG_FORMATS, "LOG_FORMAT")),
  Flag.withDefault("json" as const)
)
const probePort = Flag.Int("metrics-port").pipe(
  Flag.withDescription(setting("Port for /metrics, /healthz and /readyz; 0 disables the endpoint", "METRICS_PORT", "8080")),
  Flag.withFallbackConfig(Config.Int("METRICS_PORT")),
  Flag.withDefault(8080)
)

/** The built-in `--log-level` flag wins; else LOG_LEVEL; else info. */
const effectiveLogLevel = Effect.gen(function*() {
  const fromFlag = yield* GlobalFlag.LogLevel
  if (Option.isSome(fromFlag)) return fromFlag.value
  const fromEnv = yield* Config.option(Config.Literals(LOG_LEVELS, "LOG_LEVEL"))
  return Option.isSome(fromEnv) ? logLevelOf(fromEnv.value) : "Info"
})

/**
 * A role runs until SIGTERM/SIGINT; its probe endpoint and logging wrap it. The role, the
 * Kubernetes client and the HTTP server are imported only here, so `--help`, `crd` and
 * the other role never load them (docs/performance.md, footprint).
 */
const launchRole = (
  role: () => Promise<Layer.Layer<never, unknown, KubeApi | Readiness>>,
  options: { readonly port: number; readonly format: LogFormat }
) =>
  Effect.gen(function*() {
    const level = yield* effectiveLogLevel
    const [layer, { KubeApiHttp }, { probeServerLayer, Readiness }, { kubeApiUsable }] = yield* Effect.promise(() =>
      Promise.all([role(), import("./adapters/KubeApiHttp.ts"), import("./k8s/operability/probes.ts"), import("./k8s/roles/kubeReadiness.ts")])
    )
    const probes = options.port > 0 ? probeServerLayer(options.port) : Layer.empty
    // One line at start when the API server cannot be reached (the role keeps running and
    // retrying; readiness says it is not ready until the server answers).
    const startupCheck = Layer.effectDiscard(Effect.forkScoped(kubeApiUsable.pipe(
      Effect.catch((error) =>
        Effect.logWarning(`the Kubernetes API cannot be reached yet: ${error.message}; retrying`))
    )))
    return yield* Layer.launch(Layer.mergeAll(layer, probes, startupCheck).pipe(
      Layer.provide(Layer.mergeAll(KubeApiHttp.layer, Readiness.layer))
    )).pipe(Effect.provide(loggingLayer({ level, format: options.format })))
  })

const runController = Command.make("controller", {
  csiEndpoint,
  clusterDomain: Flag.String("cluster-domain").pipe(
    Flag.withDescription(setting("DNS domain of the cluster, used in ClusterIP hostnames", "KUBERNETES_CLUSTER_DOMAIN", DEFAULT_CLUSTER_DOMAIN)),
    Flag.withFallbackConfig(Config.String("KUBERNETES_CLUSTER_DOMAIN")),
    Flag.withDefault(DEFAULT_CLUSTER_DOMAIN)
  ),
  preset: Flag.Literals("listener-class-preset", LISTENER_CLASS_PRESETS).pipe(
    Flag.withDescription(setting("Which ListenerClasses to create at start-up if missing", "LISTENER_CLASS_PRESET", DEFAULT_LISTENER_CLASS_PRESET)),
    Flag.withFallbackConfig(Config.Literals(LISTENER_CLASS_PRESETS, "LISTENER_CLASS_PRESET")),
    Flag.withDefault(DEFAULT_LISTENER_CLASS_PRESET)
  ),
  leaderElectionNamespace: Flag.String("leader-election-namespace").pipe(
    Flag.withDescription(setting("Namespace of the leader-election Lease", "POD_NAMESPACE", "unset: no leader election")),
    Flag.withFallbackConfig(Config.String("POD_NAMESPACE")),
    Flag.optional
  ),
  instance: Flag.String("instance").pipe(
    Flag.withDescription(setting("Name of this replica (the Pod name)", "POD_NAME", "listener-operator-controller")),
    Flag.withFallbackConfig(Config.String("POD_NAME")),
    Flag.withDefault("listener-operator-controller")
  ),
  manageCrds: Flag.Boolean("manage-crds").pipe(
    Flag.withDescription(setting(
      "Keep the CRDs current at start (--no-manage-crds: you apply them yourself, e.g. with GitOps)",
      "MANAGE_CRDS",
      "true"
    )),
    Flag.withFallbackConfig(Config.Boolean("MANAGE_CRDS")),
    Flag.withDefault(true)
  ),
  logFormat,
  probePort
}, (flags) =>
  launchRole(async () => (await import("./k8s/composition/controllerRoleLayer.ts")).controllerRoleLayer({
    csiEndpoint: flags.csiEndpoint,
    clusterDomain: flags.clusterDomain,
    preset: flags.preset,
    manageCrds: flags.manageCrds,
    vendorVersion: VERSION,
    instance: flags.instance,
    leaderElection: flags.leaderElectionNamespace._tag === "Some"
      ? { namespace: flags.leaderElectionNamespace.value, name: "listener-operator-controller" }
      : undefined
  }), { port: flags.probePort, format: flags.logFormat }))

const runNode = Command.make("node", {
  csiEndpoint,
  nodeName: Flag.String("node-name").pipe(
    Flag.withDescription(setting("The Kubernetes Node this plugin serves", "KUBERNETES_NODE_NAME", "required")),
    Flag.withFallbackConfig(Config.String("KUBERNETES_NODE_NAME"))
  ),
  pluginRegistrationDir: Flag.String("plugin-registration-dir").pipe(
    Flag.withDescription(setting(
      "The kubelet's plugins_registry directory: register with the kubelet from this process (no node-driver-registrar)",
      "PLUGIN_REGISTRATION_DIR",
      "unset: off"
    )),
    Flag.withFallbackConfig(Config.String("PLUGIN_REGISTRATION_DIR")),
    Flag.optional
  ),
  kubeletRegistrationPath: Flag.String("kubelet-registration-path").pipe(
    Flag.withDescription(setting("The CSI socket's path as the kubelet sees it on the node", "DRIVER_REG_SOCK_PATH", "the CSI endpoint's path")),
    Flag.withFallbackConfig(Config.String("DRIVER_REG_SOCK_PATH")),
    Flag.optional
  ),
  kubeletPodsDir: Flag.String("kubelet-pods-dir").pipe(
    Flag.withDescription(setting(
      "The kubelet's pods directory as this process sees it: NodePublish/NodeUnpublishVolume target paths outside it are refused",
      "KUBELET_PODS_DIR",
      "unset: any absolute path"
    )),
    Flag.withFallbackConfig(Config.String("KUBELET_PODS_DIR")),
    Flag.optional
  ),
  addressRefreshSeconds: Flag.Int("address-refresh-seconds").pipe(
    Flag.withDescription(setting("Live refresh: published volumes follow watched changes at once and are all re-checked from the watch caches this often (no API request); 0 turns the refresh off", "ADDRESS_REFRESH_SECONDS", "30")),
    Flag.withFallbackConfig(Config.Int("ADDRESS_REFRESH_SECONDS")),
    Flag.withDefault(30)
  ),
  logFormat,
  probePort
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
    format: flags.logFormat
  }))

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
  "UnknownSubcommand", "ValidationError", "ShowHelp", "KubeConfigError", "RoleSettingMissing"
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
        if (bad._tag === "KubeConfigError" || bad._tag === "RoleSettingMissing") process.stderr.write(`listener-operator: ${bad.message}\n`)
        return onExit(2)
      }
      process.stderr.write(`${Cause.pretty(exit.cause)}\n`)
      return Runtime.defaultTeardown(exit, onExit)
    }
  })
)
