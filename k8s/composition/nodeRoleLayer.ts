/** The node role's production composition root: its program (k8s/roles/nodeRole.ts) over the real adapters. */
import { dirname, join } from "node:path"
import { Layer } from "effect"
import { EventRecorderKube } from "../../adapters/EventRecorderKube.ts"
import { PublishedVolumesFiles } from "../../adapters/PublishedVolumesFiles.ts"
import { VolumeFsNode } from "../../adapters/VolumeFsNode.ts"
import type { KubeApi } from "../../effects/shared/KubeApi.ts"
import type { Readiness } from "../operability/probes.ts"
import { NODE_REPORTING_CONTROLLER, nodeRole } from "../roles/nodeRole.ts"
import type { NodeRoleConfig } from "../roles/nodeRole.ts"
import type { NodeRoleError } from "../roles/roleErrors.ts"

/** `published-volumes/<node>` beside the CSI socket: a host path in the chart, so it outlives the container. */
const defaultStateDir = (csiEndpoint: string, nodeName: string): string =>
  join(dirname(csiEndpoint.startsWith("unix://") ? csiEndpoint.slice("unix://".length) : csiEndpoint), "published-volumes", nodeName)

export const nodeRoleLayer = (config: NodeRoleConfig): Layer.Layer<never, NodeRoleError, KubeApi | Readiness> =>
  nodeRole(config).pipe(
    Layer.provide(PublishedVolumesFiles.layer(config.stateDir ?? defaultStateDir(config.csiEndpoint, config.nodeName))),
    Layer.provide(VolumeFsNode.layer),
    Layer.provide(EventRecorderKube.layer({
      reportingController: NODE_REPORTING_CONTROLLER,
      reportingInstance: config.nodeName,
      seriesWriteInterval: config.eventSeriesWriteInterval
    }))
  )
