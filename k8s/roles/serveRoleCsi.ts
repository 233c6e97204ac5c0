/**
 * What both roles do with their CSI socket: serve Identity (ready once the Kubernetes API
 * answers) beside the role's own services, and report readiness once the socket is bound.
 * Every handler is timed into csi_plugin_operations_seconds (csi/metrics.ts).
 */
import { Effect } from "effect"
import type { KubeApi } from "../../effects/shared/KubeApi.ts"
import { makeIdentityService } from "../../csi/identity.ts"
import { instrumentCsiService } from "../../csi/metrics.ts"
import { serveCsi } from "../../csi/server.ts"
import type { ControllerService, NodeService } from "../../csi/server.ts"
import { Readiness } from "../operability/probes.ts"
import { kubeApiUsable } from "./kubeReadiness.ts"

const READY_CSI = "csi-socket"

export const serveRoleCsi = (config: {
  readonly endpoint: string
  readonly vendorVersion: string
  /** The Controller or the Node service (Identity is added here). */
  readonly service: ControllerService | NodeService
  /** Replace a plugin still serving on the endpoint (the node role's surge update). */
  readonly takeOver?: boolean | undefined
}) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    yield* readiness.register(READY_CSI)
    const kubeContext = yield* Effect.context<KubeApi>()
    const identity = yield* makeIdentityService({
      vendorVersion: config.vendorVersion,
      controllerService: config.service.name === "Controller",
      readiness: Effect.provideContext(kubeApiUsable, kubeContext)
    })
    const server = yield* serveCsi({ endpoint: config.endpoint, services: [identity, config.service].map(instrumentCsiService), takeOver: config.takeOver })
    yield* Effect.logInfo(`CSI ${server.services.join("+")} serving on ${server.socketPath}`)
    yield* readiness.markReady(READY_CSI)
  })
