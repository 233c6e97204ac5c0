/**
 * The node role (`run node`): the CSI Identity + Node services for one Kubernetes Node, on
 * the socket that node-driver-registrar announces to the kubelet. It writes each listener
 * volume's file tree straight into the kubelet's target path (no mount is involved).
 */
import { Effect, Layer } from "effect"
import type { KubeApi } from "../../effects/KubeApi.ts"
import { VolumeFsNode } from "../../adapters/VolumeFsNode.ts"
import { makeIdentityService } from "../../csi/identity.ts"
import { makeNodeService } from "../../csi/nodeService.ts"
import { serveCsi } from "../../csi/server.ts"
import { VolumePublisherLive } from "../../csi/volumePrograms.ts"
import { Readiness } from "../operability/probes.ts"
import { kubeApiUsable } from "./kubeReadiness.ts"

export interface NodeRoleConfig {
  readonly csiEndpoint: string
  /** The Node this plugin serves (KUBERNETES_NODE_NAME); also its CSI node id. */
  readonly nodeName: string
  readonly vendorVersion: string
}

const READY_CSI = "csi-socket"

export const nodeRoleLayer = (config: NodeRoleConfig): Layer.Layer<never, unknown, KubeApi | Readiness> =>
  Layer.effectDiscard(Effect.gen(function*() {
    if (config.nodeName.trim() === "") {
      return yield* Effect.fail(new Error("the node role needs the node name: set KUBERNETES_NODE_NAME or --node-name"))
    }
    const readiness = yield* Readiness
    yield* readiness.register(READY_CSI)
    const kubeContext = yield* Effect.context<KubeApi>()
    const identity = yield* makeIdentityService({
      vendorVersion: config.vendorVersion,
      controllerService: false,
      readiness: Effect.provideContext(kubeApiUsable, kubeContext)
    })
    const node = yield* makeNodeService({ nodeName: config.nodeName })
    const server = yield* serveCsi({ endpoint: config.csiEndpoint, services: [identity, node] })
    yield* Effect.logInfo(`CSI Identity+Node for node ${config.nodeName} serving on ${server.socketPath}`)
    yield* readiness.markReady(READY_CSI)
  })).pipe(Layer.provide(VolumePublisherLive), Layer.provide(VolumeFsNode.layer))
