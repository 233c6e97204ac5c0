/** The controller role's production composition root: its program (k8s/roles/controllerRole.ts) over the real adapters. */
import { Layer } from "effect"
import { EventRecorderKube } from "../../adapters/EventRecorderKube.ts"
import type { KubeApi } from "../../effects/shared/KubeApi.ts"
import type { Readiness } from "../operability/probes.ts"
import { controllerRole } from "../roles/controllerRole.ts"
import type { ControllerRoleConfig } from "../roles/controllerRole.ts"
import type { ControllerRoleError } from "../roles/roleErrors.ts"

export const controllerRoleLayer = (config: ControllerRoleConfig): Layer.Layer<never, ControllerRoleError, KubeApi | Readiness> =>
  controllerRole(config).pipe(Layer.provide(EventRecorderKube.layer({
    reportingController: "listeners.stackable.tech/listener-operator",
    reportingInstance: config.instance,
    seriesWriteInterval: config.eventSeriesWriteInterval
  })))
