/**
 * The CSI Node service: decodes each request (`requests.ts`), calls the publishing program
 * (`VolumePublisher`), and reports this node's identity and topology.
 */
import { Effect } from "effect"
import { TOPOLOGY_KEY_HOSTNAME } from "../domain/constants.ts"
import { VolumePublisher } from "./programs.ts"
import { publishRequestShape } from "./publishRequestShape.ts"
import type { NodeGetCapabilitiesResponse, NodeGetInfoResponse } from "./proto.ts"
import { decodeNodePublishVolume, decodeNodeUnpublishVolume } from "./requests.ts"
import type { NodeService } from "./server.ts"

export interface NodeServiceConfig {
  /** The Kubernetes Node this plugin runs on; also the CSI node id. */
  readonly nodeName: string
  /**
   * The kubelet's pods directory (`<kubelet dir>/pods`) as this process sees it: target
   * paths outside it are refused. Unset: any normalised absolute path (csi-sanity, tests).
   */
  readonly kubeletPodsDir?: string | undefined
}

/** No staging, no volume stats, no expansion: publishing is all this driver does. */
export const nodeCapabilities: NodeGetCapabilitiesResponse = { capabilities: [] }

export const nodeInfo = (nodeName: string): NodeGetInfoResponse => ({
  node_id: nodeName,
  // Listener volumes cost nothing on the node: no limit.
  max_volumes_per_node: 0,
  accessible_topology: { segments: { [TOPOLOGY_KEY_HOSTNAME]: nodeName } }
})

export const makeNodeService = (config: NodeServiceConfig): Effect.Effect<NodeService, never, VolumePublisher> =>
  Effect.gen(function*() {
    const publisher = yield* VolumePublisher
    const info = nodeInfo(config.nodeName)
    return {
      name: "Node",
      handlers: {
        NodePublishVolume: (request) =>
          Effect.logDebug("NodePublishVolume request").pipe(
            Effect.annotateLogs({ shape: publishRequestShape(request) }),
            Effect.andThen(decodeNodePublishVolume(request, config.kubeletPodsDir)),
            Effect.flatMap(publisher.publish),
            Effect.as({})
          ),
        NodeUnpublishVolume: (request) =>
          decodeNodeUnpublishVolume(request, config.kubeletPodsDir).pipe(Effect.flatMap(publisher.unpublish), Effect.as({})),
        NodeGetCapabilities: () => Effect.succeed(nodeCapabilities),
        NodeGetInfo: () => Effect.succeed(info)
      }
    }
  })
