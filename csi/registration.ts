/**
 * Built-in kubelet plugin registration: the node role serves the kubelet's
 * `pluginregistration.Registration` API on a socket in the kubelet's plugins_registry
 * directory, which is what the node-driver-registrar sidecar otherwise does. The kubelet's
 * plugin watcher finds the socket, asks GetInfo, connects to the CSI endpoint we name,
 * calls NodeGetInfo, and reports the outcome with NotifyRegistrationStatus.
 *
 * Why built in: one container per node instead of two (a smaller DaemonSet), and it works
 * where the registrar image cannot be had. The chart keeps the sidecar as its default.
 */
import { status } from "@grpc/grpc-js"
import { Duration, Effect, Ref } from "effect"
import type { Scope } from "effect"
import { CSI_DRIVER_NAME } from "../domain/constants.ts"
import { registrationMessage } from "./grpc/codecs.ts"
import { unaryHandler, unaryMethod } from "./grpc/methods.ts"
import { serveOnSocket } from "./grpcSocket.ts"
import { CsiServerError, socketPathOf } from "./socket.ts"

/** The socket's file name in plugins_registry: `<driver>-reg.sock`, as node-driver-registrar names it. */
export const registrationSocketName = (driverName: string): string => `${driverName}-reg.sock`

/** CSI versions this driver speaks (the kubelet requires one it supports). */
export const SUPPORTED_CSI_VERSIONS: ReadonlyArray<string> = ["1.0.0"]

export interface PluginInfo {
  readonly type: string
  readonly name: string
  readonly endpoint: string
  readonly supported_versions: ReadonlyArray<string>
}

export interface RegistrationStatus {
  readonly plugin_registered?: boolean
  readonly error?: string
}

/** The kubelet's last verdict; `undefined` until it has called NotifyRegistrationStatus. */
export type RegistrationState = { readonly registered: boolean; readonly error: string } | undefined

export interface RegistrationOptions {
  /** The kubelet's plugins_registry directory as this process sees it. */
  readonly registrationDir: string
  /** The CSI socket path as the kubelet sees it on the node (returned as `endpoint`). */
  readonly kubeletCsiEndpoint: string
  /** Called with every verdict of the kubelet (e.g. to set readiness). */
  readonly onStatus: (state: NonNullable<RegistrationState>) => Effect.Effect<void>
  readonly driverName?: string | undefined
}

export const pluginInfo = (driverName: string, kubeletCsiEndpoint: string): PluginInfo => ({
  type: "CSIPlugin",
  name: driverName,
  endpoint: kubeletCsiEndpoint,
  supported_versions: [...SUPPORTED_CSI_VERSIONS]
})

/** The two RPCs of `pluginregistration.Registration` (registration.proto), as grpc-js serves them. */
const registrationService = () => ({
  GetInfo: unaryMethod("/pluginregistration.Registration/GetInfo", registrationMessage("InfoRequest"), registrationMessage("PluginInfo")),
  NotifyRegistrationStatus: unaryMethod(
    "/pluginregistration.Registration/NotifyRegistrationStatus",
    registrationMessage("RegistrationStatus"),
    registrationMessage("RegistrationStatusResponse")
  )
})

/** A handler that runs `respond` on the decoded request and answers with its result. */
const handlerOf = (respond: (request: Record<string, unknown>) => Promise<object>) =>
  unaryHandler((request, _call, callback) => {
    respond(request).then(
      (response) => callback(null, response),
      (cause: unknown) => callback({ code: status.INTERNAL, details: `internal error: ${cause instanceof Error ? cause.message : String(cause)}` })
    )
  })

/**
 * Serve the registration socket until the scope closes. Returns a view of the kubelet's
 * last verdict. A kubelet that refuses the plugin is logged as an error with its reason.
 */
export const serveRegistration = (
  options: RegistrationOptions
): Effect.Effect<Ref.Ref<RegistrationState>, CsiServerError, Scope.Scope> =>
  Effect.gen(function*() {
    const driverName = options.driverName ?? CSI_DRIVER_NAME
    const endpoint = `${options.registrationDir}/${registrationSocketName(driverName)}`
    const socketPath = yield* socketPathOf(endpoint)
    const definition = yield* Effect.try({
      try: registrationService,
      catch: (cause) => new CsiServerError({ reason: "ProtoLoad", endpoint, message: "cannot build the registration methods from the generated protocol code", cause })
    })
    const state = yield* Ref.make<RegistrationState>(undefined)
    const info = pluginInfo(driverName, options.kubeletCsiEndpoint)
    const context = yield* Effect.context<never>()
    const run = <A>(effect: Effect.Effect<A>) => Effect.runPromiseWith(context)(effect)

    const implementation = {
      GetInfo: handlerOf(async () => {
        await run(Effect.logInfo("kubelet asked for plugin info").pipe(Effect.annotateLogs({ endpoint: info.endpoint })))
        return info
      }),
      NotifyRegistrationStatus: handlerOf(async (request: RegistrationStatus) => {
        const verdict = { registered: request.plugin_registered === true, error: request.error ?? "" }
        await run(Effect.andThen(
          verdict.registered
            ? Effect.logInfo("registered with the kubelet")
            : Effect.logError(`the kubelet refused the plugin registration: ${verdict.error}`),
          Effect.andThen(Ref.set(state, verdict), options.onStatus(verdict))
        ))
        return {}
      })
    }
    yield* serveOnSocket({ services: [{ definition, implementation }], socketPath, endpoint, shutdownTimeout: Duration.seconds(2), what: "kubelet registration endpoint" })
    yield* Effect.logInfo("kubelet registration endpoint ready").pipe(
      Effect.annotateLogs({ socket: socketPath, csiEndpoint: info.endpoint })
    )
    return state
  })
