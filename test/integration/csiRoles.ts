// The operator's two roles, composed in this test process the way main.ts composes them
// (minus CLI and leader election), against the real API server of test/envtest:
// - controller role: Listener controller + CSI Identity/Controller on one socket;
// - node role (one per fake node): CSI Identity/Node on its own socket, writing volumes
//   to the real filesystem.
import { Effect, Exit, Fiber, Layer, Scope } from "effect"
import { EventRecorderKube } from "../../adapters/EventRecorderKube.ts"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { VolumeFsNode } from "../../adapters/VolumeFsNode.ts"
import { makeControllerService } from "../../csi/controllerService.ts"
import { makeIdentityService } from "../../csi/identity.ts"
import { makeNodeService } from "../../csi/nodeService.ts"
import { serveCsi } from "../../csi/server.ts"
import { VolumeProvisionerLive, VolumePublisherLive } from "../../csi/volumePrograms.ts"
import { Kinds } from "../../domain/kinds.ts"
import { KubeApi } from "../../effects/KubeApi.ts"
import { ListenerController } from "../../k8s/listenerController.ts"

export interface RolesOptions {
  readonly kubeconfigPath: string
  readonly controllerSocket: string
  /** Node name → its node plugin socket. */
  readonly nodeSockets: Readonly<Record<string, string>>
}

export interface Roles {
  stop(): Promise<void>
}

const canReachApi = KubeApi.use((api) => api.list(Kinds.Namespace))

export async function startRoles(options: RolesOptions): Promise<Roles> {
  const serve = Effect.gen(function*() {
    const identity = yield* makeIdentityService({ vendorVersion: "test", controllerService: true, readiness: canReachApi })
    yield* serveCsi({ endpoint: options.controllerSocket, services: [identity, yield* makeControllerService] })
    for (const [nodeName, socket] of Object.entries(options.nodeSockets)) {
      const nodeIdentity = yield* makeIdentityService({ vendorVersion: "test", controllerService: false, readiness: canReachApi })
      yield* serveCsi({ endpoint: socket, services: [nodeIdentity, yield* makeNodeService({ nodeName })] })
    }
  })
  const ports = Layer.merge(KubeApiHttp.layerFromKubeconfigFile(options.kubeconfigPath), VolumeFsNode.layer)
  const roles = Layer.mergeAll(
    VolumeProvisionerLive,
    VolumePublisherLive,
    ListenerController.layer().pipe(
      Layer.provide(EventRecorderKube.layer({ reportingController: "listeners.stackable.tech/test", reportingInstance: "test" }))
    )
  ).pipe(Layer.provideMerge(ports))

  const scope = Effect.runSync(Scope.make())
  let resolveReady: () => void = () => undefined
  let rejectReady: (error: Error) => void = () => undefined
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve
    rejectReady = reject
  })
  const fiber = Effect.runFork(
    Effect.gen(function*() {
      yield* serve
      resolveReady()
      return yield* Effect.never
    }).pipe(
      Effect.provide(roles),
      Scope.provide(scope),
      Effect.tapCause((cause) => Effect.sync(() => rejectReady(new Error(`roles failed to start: ${String(cause)}`))))
    )
  )
  await ready
  return {
    stop: async () => {
      await Effect.runPromise(Fiber.interrupt(fiber))
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
}
