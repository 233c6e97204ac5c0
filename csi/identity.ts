/**
 * The CSI Identity service: who the plugin is, what it offers, and whether it is ready.
 *
 * Capabilities: VOLUME_ACCESSIBILITY_CONSTRAINTS always (nodes report a topology, pinned
 * volumes carry one); CONTROLLER_SERVICE only where the Controller service is served on
 * the same endpoint (the controller role), because a CO that sees it calls Controller RPCs
 * on that endpoint, which the node role would answer UNIMPLEMENTED.
 *
 * Probe: not ready (ready=false, not an error) until the supplied readiness check first
 * succeeds; from then on ready without checking again. Probe tells the CO that the plugin
 * finished starting; outages of the API server later show up as UNAVAILABLE answers of
 * the calls that need it, not as a plugin restart.
 */
import { Duration, Effect, Option, Ref } from "effect"
import { CSI_DRIVER_NAME } from "../domain/constants.ts"
import type { GetPluginCapabilitiesResponse, PluginServiceType } from "./proto.ts"
import type { IdentityService } from "./server.ts"

export interface IdentityConfig<R = never> {
  /** The plugin version reported as vendor_version (the package version). */
  readonly vendorVersion: string
  /** Whether this endpoint also serves the Controller service. */
  readonly controllerService: boolean
  /** Succeeds once the plugin can serve, e.g. a cheap read through the Kubernetes client. */
  readonly readiness: Effect.Effect<unknown, unknown, R>
  /** A check slower than this counts as not ready. Default 5 seconds. */
  readonly readinessTimeout?: Duration.Input | undefined
  /** Defaults to `listeners.stackable.tech`; only a custom distribution changes it. */
  readonly driverName?: string | undefined
}

export const pluginCapabilities = (controllerService: boolean): GetPluginCapabilitiesResponse => {
  const types: ReadonlyArray<PluginServiceType> = controllerService
    ? ["CONTROLLER_SERVICE", "VOLUME_ACCESSIBILITY_CONSTRAINTS"]
    : ["VOLUME_ACCESSIBILITY_CONSTRAINTS"]
  return { capabilities: types.map((type) => ({ service: { type } })) }
}

export const makeIdentityService = <R = never>(config: IdentityConfig<R>): Effect.Effect<IdentityService<R>> =>
  Effect.gen(function*() {
    const ready = yield* Ref.make(false)
    const timeout = Duration.fromInputUnsafe(config.readinessTimeout ?? "5 seconds")
    const check: Effect.Effect<boolean, never, R> = config.readiness.pipe(
      Effect.timeoutOption(timeout),
      Effect.map(Option.isSome),
      Effect.catchCause((cause) => Effect.as(Effect.logDebug("CSI readiness check failed", cause), false))
    )
    const name = config.driverName ?? CSI_DRIVER_NAME
    const capabilities = pluginCapabilities(config.controllerService)
    return {
      name: "Identity",
      handlers: {
        GetPluginInfo: () => Effect.succeed({ name, vendor_version: config.vendorVersion, manifest: {} }),
        GetPluginCapabilities: () => Effect.succeed(capabilities),
        Probe: () =>
          Effect.gen(function*() {
            if (yield* Ref.get(ready)) return { ready: { value: true } }
            const passed = yield* check
            if (passed) yield* Ref.set(ready, true)
            return { ready: { value: passed } }
          })
      }
    }
  })
