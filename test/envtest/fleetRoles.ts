/**
 * How the node fleet (nodeFleet.ts) composes our roles, shared by the fleet's own process
 * and its worker processes (fleetWorker.ts): the controller role and node roles exactly as
 * `run controller` and `run node` compose them, each over an HTTP client of its own (its
 * own connections and watches, as on its own machine), built in a scope the caller closes.
 */
import { appendFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Exit, Layer, Logger, Scope } from "effect"
import type { Duration } from "effect"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { kubeConfigFromFile } from "../../adapters/http/kubeconfig.ts"
import { KubeApi } from "../../effects/shared/KubeApi.ts"
import { Readiness } from "../../k8s/operability/probes.ts"
import { controllerRoleLayer } from "../../k8s/composition/controllerRoleLayer.ts"
import { nodeRoleLayer } from "../../k8s/composition/nodeRoleLayer.ts"

export interface FleetRolesConfig {
  readonly kubeconfigPath: string
  /** The fleet's directory: CSI sockets, kubelet dirs, state dirs. */
  readonly dir: string
  /** The node roles' safety resync (`--address-refresh-seconds`); default 30 s as the chart. */
  readonly resync?: Duration.Input | undefined
  readonly publishWait?: Duration.Input | undefined
  /** Where the roles log (logfmt lines appended); default: only warnings and errors to stderr. */
  readonly logFile?: string | undefined
}

export const fleetSocketOf = (dir: string, node: string): string => join(dir, `${node}.sock`)

type Stop = () => Promise<void>

export interface FleetRoles {
  startController(): Promise<Stop>
  startNodeRoles(nodes: ReadonlyArray<string>): Promise<Stop>
}

export const fleetRoles = async (config: FleetRolesConfig): Promise<FleetRoles> => {
  const kc = await Effect.runPromise(kubeConfigFromFile(config.kubeconfigPath))
  const logFile = config.logFile
  const logging = logFile === undefined
    ? Logger.layer([Logger.map(Logger.formatLogFmt, (line: string) => {
      if (/level=(WARN|ERROR|FATAL)/u.test(line)) process.stderr.write(`${line}\n`)
    })])
    : Logger.layer([Logger.map(Logger.formatLogFmt, (line: string) => appendFileSync(logFile, `${line}\n`))])
  const ownClient = (userAgent: string, maxSockets = 8) =>
    Layer.effect(KubeApi, Effect.map(KubeApiHttp.make(kc, { userAgent, maxSockets }), (made) => made.api))
  const run = async (layer: Layer.Layer<never, unknown, never>): Promise<Stop> => {
    const scope = Effect.runSync(Scope.make())
    try {
      await Effect.runPromise(Layer.buildWithScope(layer.pipe(Layer.provide(logging)), scope))
    } catch (error) {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      throw error
    }
    return () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
  return {
    startController: () =>
      run(controllerRoleLayer({
        csiEndpoint: join(config.dir, "controller.sock"),
        clusterDomain: "cluster.local",
        preset: "none",
        vendorVersion: "fleet",
        instance: "fleet-controller"
      }).pipe(Layer.provide(Layer.merge(ownClient("fleet-controller", 32), Readiness.layer)))),
    startNodeRoles: (nodes) =>
      run(nodes.map((node) =>
        nodeRoleLayer({
          csiEndpoint: fleetSocketOf(config.dir, node),
          nodeName: node,
          vendorVersion: "fleet",
          addressRefreshInterval: config.resync ?? "30 seconds",
          publishWait: config.publishWait,
          stateDir: join(config.dir, "state", node)
        }).pipe(Layer.provide(Layer.merge(ownClient(`fleet-node/${node}`), Readiness.layer)))
      ).reduce<Layer.Layer<never, unknown, never>>((merged, role) => Layer.merge(merged, role), Layer.empty))
  }
}
