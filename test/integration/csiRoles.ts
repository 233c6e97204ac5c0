// The operator's two roles, composed in this test process exactly as `run controller` and
// `run node` compose them (k8s/roles/*), against the real API server of test/envtest:
// - controller role: Listener controller + CSI Identity/Controller on one socket;
// - node role (one per fake node): CSI Identity/Node on its own socket, writing volumes
//   to the real filesystem.
import { Effect, Exit, Layer, Scope } from "effect"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { Readiness } from "../../k8s/operability/probes.ts"
import { controllerRoleLayer } from "../../k8s/roles/controllerRole.ts"
import { nodeRoleLayer } from "../../k8s/roles/nodeRole.ts"

export interface RolesOptions {
  readonly kubeconfigPath: string
  readonly controllerSocket: string
  /** Node name → its node plugin socket. */
  readonly nodeSockets: Readonly<Record<string, string>>
}

export interface Roles {
  stop(): Promise<void>
}

/** Resolves once every socket is served; `stop` closes them and stops the controller. */
export async function startRoles(options: RolesOptions): Promise<Roles> {
  const controller = controllerRoleLayer({
    csiEndpoint: options.controllerSocket,
    clusterDomain: "cluster.local",
    // The tests create the classes they use.
    preset: "none",
    vendorVersion: "test",
    instance: "csi-e2e"
  })
  const nodes = Object.entries(options.nodeSockets).map(([nodeName, socket]) =>
    nodeRoleLayer({ csiEndpoint: socket, nodeName, vendorVersion: "test" })
  )
  const roles = Layer.mergeAll(controller, ...nodes).pipe(
    Layer.provide(Layer.merge(KubeApiHttp.layerFromKubeconfigFile(options.kubeconfigPath), Readiness.layer))
  )
  const scope = Effect.runSync(Scope.make())
  try {
    await Effect.runPromise(Layer.buildWithScope(roles, scope))
  } catch (error) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  }
  return { stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
