#!/usr/bin/env node
/**
 * The composition root and command line: `crd`, `run controller`, `run node`, `demo`.
 * Kept thin on purpose — each role is a layer built in `k8s/roles/`; this file only reads
 * settings (flag, else environment variable, else default) and launches one of them.
 */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Cause, Config, Effect, Exit, Layer, Option, Runtime } from "effect"
import { Command, Flag, GlobalFlag } from "effect/cli"
import { KubeApiHttp, OPERATOR_VERSION } from "./adapters/KubeApiHttp.ts"
import { DEFAULT_CLUSTER_DOMAIN, DEFAULT_LISTENER_CLASS_PRESET, LISTENER_CLASS_PRESETS } from "./domain/constants.ts"
import { crdYaml } from "./k8s/crds.ts"
import type { KubeApi } from "./effects/KubeApi.ts"
import { LOG_FORMATS, LOG_LEVELS, loggingLayer, logLevelOf } from "./k8s/operability/logging.ts"
import type { LogFormat } from "./k8s/operability/logging.ts"
import { probeServerLayer, Readiness } from "./k8s/operability/probes.ts"
import { controllerRoleLayer } from "./k8s/roles/controllerRole.ts"
import { nodeRoleLayer } from "./k8s/roles/nodeRole.ts"

const VERSION = OPERATOR_VERSION

const csiEndpoint = Flag.String("csi-endpoint").pipe(
  Flag.withDescription("Unix socket to serve CSI on (a path, or unix:// + absolute path)"),
  Flag.withFallbackConfig(Config.String("CSI_ENDPOINT"))
)
const logFormat = Flag.Literals("log-format", LOG_FORMATS).pipe(
  Flag.withDescription("json (one object per line) or text (logfmt)"),
  Flag.withFallbackConfig(Config.Literals(LOG_FORMATS, "LOG_FORMAT")),
  Flag.withDefault("json" as const)
)
const probePort = Flag.Int("metrics-port").pipe(
  Flag.withDescription("Port for /metrics, /healthz and /readyz; 0 disables the endpoint"),
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

/** A role runs until SIGTERM/SIGINT; its probe endpoint and logging wrap it. */
const launchRole = (
  role: Layer.Layer<never, unknown, KubeApi | Readiness>,
  options: { readonly port: number; readonly format: LogFormat }
) =>
  Effect.gen(function*() {
    const level = yield* effectiveLogLevel
    const probes = options.port > 0 ? probeServerLayer(options.port) : Layer.empty
    return yield* Layer.launch(Layer.mergeAll(role, probes).pipe(
      Layer.provide(Layer.mergeAll(KubeApiHttp.layer, Readiness.layer))
    )).pipe(Effect.provide(loggingLayer({ level, format: options.format })))
  })

const runController = Command.make("controller", {
  csiEndpoint,
  clusterDomain: Flag.String("cluster-domain").pipe(
    Flag.withDescription("DNS domain of the cluster, used in ClusterIP hostnames"),
    Flag.withFallbackConfig(Config.String("KUBERNETES_CLUSTER_DOMAIN")),
    Flag.withDefault(DEFAULT_CLUSTER_DOMAIN)
  ),
  preset: Flag.Literals("listener-class-preset", LISTENER_CLASS_PRESETS).pipe(
    Flag.withDescription("Which ListenerClasses to create at start-up if missing"),
    Flag.withFallbackConfig(Config.Literals(LISTENER_CLASS_PRESETS, "LISTENER_CLASS_PRESET")),
    Flag.withDefault(DEFAULT_LISTENER_CLASS_PRESET)
  ),
  leaderElectionNamespace: Flag.String("leader-election-namespace").pipe(
    Flag.withDescription("Namespace of the leader-election Lease (unset: no leader election)"),
    Flag.withFallbackConfig(Config.String("POD_NAMESPACE")),
    Flag.optional
  ),
  instance: Flag.String("instance").pipe(
    Flag.withDescription("Name of this replica (the Pod name)"),
    Flag.withFallbackConfig(Config.String("POD_NAME")),
    Flag.withDefault("listener-operator-controller")
  ),
  logFormat,
  probePort
}, (flags) =>
  launchRole(controllerRoleLayer({
    csiEndpoint: flags.csiEndpoint,
    clusterDomain: flags.clusterDomain,
    preset: flags.preset,
    vendorVersion: VERSION,
    instance: flags.instance,
    leaderElection: flags.leaderElectionNamespace._tag === "Some"
      ? { namespace: flags.leaderElectionNamespace.value, name: "listener-operator-controller" }
      : undefined
  }), { port: flags.probePort, format: flags.logFormat }))

const runNode = Command.make("node", {
  csiEndpoint,
  nodeName: Flag.String("node-name").pipe(
    Flag.withDescription("The Kubernetes Node this plugin serves"),
    Flag.withFallbackConfig(Config.String("KUBERNETES_NODE_NAME"))
  ),
  pluginRegistrationDir: Flag.String("plugin-registration-dir").pipe(
    Flag.withDescription(
      "The kubelet's plugins_registry directory: register with the kubelet from this process (no node-driver-registrar); unset: off"
    ),
    Flag.withFallbackConfig(Config.String("PLUGIN_REGISTRATION_DIR")),
    Flag.optional
  ),
  kubeletRegistrationPath: Flag.String("kubelet-registration-path").pipe(
    Flag.withDescription("The CSI socket's path as the kubelet sees it on the node (default: the CSI endpoint's path)"),
    Flag.withFallbackConfig(Config.String("DRIVER_REG_SOCK_PATH")),
    Flag.optional
  ),
  logFormat,
  probePort
}, (flags) =>
  launchRole(nodeRoleLayer({
    csiEndpoint: flags.csiEndpoint,
    nodeName: flags.nodeName,
    vendorVersion: VERSION,
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

const crd = Command.make("crd", {}, () => Effect.sync(() => process.stdout.write(crdYaml()))).pipe(
  Command.withDescription("Print the CustomResourceDefinitions as YAML")
)

// Loaded on demand: the demos drive in-memory and local clusters that a deployed operator
// never needs.
const demo = Command.make("demo", {
  cluster: Flag.Boolean("cluster").pipe(
    Flag.withDescription("Run on a real local control plane (kube-apiserver, etcd, …; builds them once from the Go module proxy)"),
    Flag.withDefault(false)
  ),
  realNodes: Flag.Boolean("real-nodes").pipe(
    Flag.withDescription("Run on real kubelets and containerd with the chart-installed operator image (needs root)"),
    Flag.withDefault(false)
  ),
  verbose: Flag.Boolean("verbose").pipe(
    Flag.withDescription("Show the roles' logs on stderr instead of writing them to a file"),
    Flag.withDefault(false)
  )
}, ({ cluster, realNodes, verbose }) =>
  realNodes
    ? Effect.flatMap(Effect.promise(() => import("./demo/realNodesDemo.ts")), (module) => module.runRealNodesDemo)
    : cluster
    ? Effect.flatMap(Effect.promise(() => import("./demo/demo.ts")), (module) => module.runDemo)
    : Effect.flatMap(Effect.promise(() => import("./demo/memoryDemo.ts")), (module) => {
      const logs = verbose ? "stderr" : module.defaultLogPath()
      const say = (line: string) => process.stdout.write(`${line}\n`)
      say(`listener-operator demo — the in-memory cluster: both roles' programs, no Go, no cluster${verbose ? "" : ` (role logs: ${logs})`}`)
      return module.runMemoryDemo({ say, logs })
    })).pipe(
  Command.withDescription("Show per-replica addresses on an in-memory cluster (default), a real local control plane (--cluster) or real nodes (--real-nodes)")
)

Command.make("listener-operator").pipe(
  Command.withSubcommands([crd, run, demo]),
  Command.run({ version: VERSION }),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({
    // SIGTERM/SIGINT end the roles gracefully: that is a clean exit, not a failure.
    teardown: (exit, onExit) =>
      Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
  })
)
