/**
 * The controller role (`run controller`): the Listener controller and the node-loss
 * controller (behind one leader election, k8s/reconcilers.ts), the preset ListenerClasses, and the CSI Identity + Controller services on
 * one Unix socket, beside which the external-provisioner sidecar runs.
 *
 * Every replica serves CSI (the provisioner sidecar elects its own leader) and keeps the
 * controller's caches warm; only the leader reconciles Listeners. Presets are created by
 * whichever replica starts, which is safe because they are only ever created, never
 * updated.
 */
import { Deferred, Effect, Layer, Schedule } from "effect"
import type { Duration } from "effect"
import type { ListenerClassPreset } from "../../domain/constants.ts"
import { FieldManagers } from "../../domain/constants.ts"
import type { KubeApi } from "../../effects/shared/KubeApi.ts"
import { ListenerSettings } from "../../effects/shared/ListenerSettings.ts"
import { applyPresets } from "../../effects/controller/presets.ts"
import type { EventRecorder } from "../../effects/shared/EventRecorder.ts"
import { makeControllerService } from "../../csi/controllerService.ts"
import { VolumeProvisionerLive } from "../../csi/volumePrograms.ts"
import { crdManifests } from "../crds.ts"
import { syncCrds } from "../crdSync.ts"
import { runReconcilers } from "../reconcilers.ts"
import { Readiness } from "../operability/probes.ts"
import type { ControllerRoleError } from "./roleErrors.ts"
import { serveRoleCsi } from "./serveRoleCsi.ts"

export interface ControllerRoleConfig {
  readonly csiEndpoint: string
  readonly clusterDomain: string
  readonly preset: ListenerClassPreset
  /** Reported as the CSI plugin's vendor_version. */
  readonly vendorVersion: string
  /** This replica's name (the Pod name): Event reportingInstance and leader identity. */
  readonly instance: string
  /** The Lease to elect a leader with; undefined runs the controller unconditionally (single replica, demo). */
  readonly leaderElection?: { readonly namespace: string; readonly name: string } | undefined
  /** How often a repeating Event's series is written (default 1 minute; tests shorten it). */
  readonly eventSeriesWriteInterval?: Duration.Input | undefined
  /**
   * Keep this build's CRDs current at start (k8s/crdSync.ts) before reconciling; the CLI
   * turns it on (MANAGE_CRDS), embedders that install the CRDs themselves leave it off.
   */
  readonly manageCrds?: boolean | undefined
}

const READY_PRESETS = "listener-class-presets"
const READY_CRDS = "crds"

// Presets must not block start-up when the API server is briefly away: retry in the background.
const presetRetry = Schedule.min([Schedule.exponential("1 second"), Schedule.spaced("30 seconds")]).pipe(Schedule.jittered)

/**
 * The controller role's program: it requires its adapters (KubeApi, EventRecorder) from the
 * layer graph; production provides them in k8s/composition/controllerRoleLayer.ts.
 */
export const controllerRole = (config: ControllerRoleConfig): Layer.Layer<never, ControllerRoleError, KubeApi | EventRecorder | Readiness> => {
  const settings = { clusterDomain: config.clusterDomain, fieldManager: FieldManagers.controller }

  const csi = Layer.effectDiscard(Effect.gen(function*() {
    const controller = yield* makeControllerService
    yield* serveRoleCsi({ endpoint: config.csiEndpoint, vendorVersion: config.vendorVersion, service: controller })
  })).pipe(Layer.provide(VolumeProvisionerLive))

  // Presets and reconciling wait until the CRDs are this build's (or a refusal was reported):
  // the objects they write must fit the CRD the API server validates them against.
  const crdsSynced = Deferred.makeUnsafe<void>()
  const crds = Layer.effectDiscard(Effect.gen(function*() {
    if (config.manageCrds !== true) return yield* Deferred.succeed(crdsSynced, undefined)
    const readiness = yield* Readiness
    yield* readiness.register(READY_CRDS)
    yield* syncCrds(crdManifests()).pipe(
      Effect.catch((error) =>
        Effect.logError(
          `keeping the CRDs current failed; running on the CRDs as they are: ${error.message}. ` +
            `Grant the controller get and update on the three listeners.stackable.tech CRDs, or set crds.manage=false (MANAGE_CRDS=false) and apply them yourself`
        )),
      Effect.andThen(readiness.markReady(READY_CRDS)),
      Effect.ensuring(Deferred.succeed(crdsSynced, undefined)),
      Effect.forkScoped
    )
  }))

  const presets = Layer.effectDiscard(Effect.gen(function*() {
    const readiness = yield* Readiness
    yield* readiness.register(READY_PRESETS)
    yield* Deferred.await(crdsSynced).pipe(
      Effect.andThen(applyPresets(config.preset)),
      Effect.tapError((error) => Effect.logWarning(`creating preset ListenerClasses failed, retrying: ${error.message}`)),
      Effect.retry(presetRetry),
      Effect.andThen(readiness.markReady(READY_PRESETS)),
      Effect.forkScoped
    )
  }))

  // Caches run on every replica (a new leader starts warm); only the lease holder reconciles.
  const reconcileLoop = Deferred.await(crdsSynced).pipe(
    Effect.andThen(runReconcilers({
      leaderElection: config.leaderElection === undefined ? undefined : { lease: config.leaderElection, identity: config.instance }
    })),
    Effect.provideService(ListenerSettings, settings)
  )
  const controller = Layer.effectDiscard(Effect.forkScoped(reconcileLoop))

  return Layer.mergeAll(csi, crds, presets, controller)
}
