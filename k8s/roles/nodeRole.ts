/**
 * The node role (`run node`): the CSI Identity + Node services for one Kubernetes Node, on
 * the socket that node-driver-registrar announces to the kubelet. It writes each listener
 * volume's file tree straight into the kubelet's target path (no mount is involved).
 */
import { Effect, Layer } from "effect"
import type { KubeApi } from "../../effects/KubeApi.ts"
import { VolumeFsNode } from "../../adapters/VolumeFsNode.ts"
import { makeNodeService } from "../../csi/nodeService.ts"
import { VolumePublisherLive } from "../../csi/volumePrograms.ts"
import { Readiness } from "../operability/probes.ts"
import { serveRoleCsi } from "./serveRoleCsi.ts"

export interface NodeRoleConfig {
  readonly csiEndpoint: string
  /** The Node this plugin serves (KUBERNETES_NODE_NAME); also its CSI node id. */
  readonly nodeName: string
  readonly vendorVersion: string
}

export const nodeRoleLayer = (config: NodeRoleConfig): Layer.Layer<never, unknown, KubeApi | Readiness> =>
  Layer.effectDiscard(Effect.gen(function*() {
    if (config.nodeName.trim() === "") {
      return yield* Effect.fail(new Error("the node role needs the node name: set KUBERNETES_NODE_NAME or --node-name"))
    }
    const node = yield* makeNodeService({ nodeName: config.nodeName })
    yield* serveRoleCsi({ endpoint: config.csiEndpoint, vendorVersion: config.vendorVersion, service: node })
  })).pipe(Layer.provide(VolumePublisherLive), Layer.provide(VolumeFsNode.layer))
