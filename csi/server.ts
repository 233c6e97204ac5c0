/**
 * The CSI gRPC endpoint: serves a set of csi.v1 services on a Unix socket as a scoped
 * resource, and runs each call as an Effect.
 *
 * Socket lifecycle: a stale socket file is removed at start (a live one, or a file that
 * is not a socket, is refused); the socket is chmod 0600 right after bind, before the
 * endpoint is announced ready; at scope close the server shuts down gracefully (in-flight
 * calls finish, bounded by `shutdownTimeout`, then the rest are cancelled) and the socket
 * is removed if it is still ours. There is a tiny window between bind and chmod in which
 * the socket has the umask's mode; we accept it rather than change the process-wide umask.
 *
 * Calls: each handler runs in the context captured when the server started, in a fiber
 * the scope owns, with the call's deadline as `CallDeadline`; a cancelled call interrupts
 * its fiber. A typed failure becomes the gRPC
 * status of `status.ts`, a defect becomes INTERNAL, an interruption UNAVAILABLE; nothing
 * escapes to crash the process. RPCs without a handler answer UNIMPLEMENTED. The transport
 * is grpc-js, with the generated codecs as its (de)serializers (`grpc/methods.ts`).
 */
import { status as GrpcStatus } from "@grpc/grpc-js"
import type { sendUnaryData, ServiceDefinition, UntypedServiceImplementation } from "@grpc/grpc-js"
import { Cause, Clock, Duration, Effect, Exit, FiberSet, Result } from "effect"
import type { Fiber, Scope } from "effect"
import type {
  ControllerGetCapabilitiesRequest,
  ControllerGetCapabilitiesResponse,
  CreateVolumeRequest,
  CreateVolumeResponse,
  CsiServiceName,
  DeleteVolumeRequest,
  DeleteVolumeResponse,
  GetPluginCapabilitiesRequest,
  GetPluginCapabilitiesResponse,
  GetPluginInfoRequest,
  GetPluginInfoResponse,
  NodeGetCapabilitiesRequest,
  NodeGetCapabilitiesResponse,
  NodeGetInfoRequest,
  NodeGetInfoResponse,
  NodePublishVolumeRequest,
  NodePublishVolumeResponse,
  NodeUnpublishVolumeRequest,
  NodeUnpublishVolumeResponse,
  ProbeRequest,
  ProbeResponse,
  ValidateVolumeCapabilitiesRequest,
  ValidateVolumeCapabilitiesResponse
} from "./proto.ts"
import { CallDeadline } from "../effects/shared/CallDeadline.ts"
import { csiMethod, unaryHandler } from "./grpc/methods.ts"
import type { GrpcService } from "./grpcSocket.ts"
import { serveOnSocket } from "./grpcSocket.ts"
import { CsiServerError, socketPathOf } from "./socket.ts"
import { callStatusOf, defectStatus, statusName } from "./status.ts"
import type { CallStatus, CsiError } from "./status.ts"

export { CsiServerError, socketPathOf } from "./socket.ts"
export type { CsiServerErrorReason } from "./socket.ts"

export type CsiHandler<Request, Response, R = never> = (request: Request) => Effect.Effect<Response, CsiError, R>

export interface IdentityHandlers<R = never> {
  readonly GetPluginInfo: CsiHandler<GetPluginInfoRequest, GetPluginInfoResponse, R>
  readonly GetPluginCapabilities: CsiHandler<GetPluginCapabilitiesRequest, GetPluginCapabilitiesResponse, R>
  readonly Probe: CsiHandler<ProbeRequest, ProbeResponse, R>
}

export interface ControllerHandlers<R = never> {
  readonly CreateVolume: CsiHandler<CreateVolumeRequest, CreateVolumeResponse, R>
  readonly DeleteVolume: CsiHandler<DeleteVolumeRequest, DeleteVolumeResponse, R>
  readonly ValidateVolumeCapabilities: CsiHandler<ValidateVolumeCapabilitiesRequest, ValidateVolumeCapabilitiesResponse, R>
  readonly ControllerGetCapabilities: CsiHandler<ControllerGetCapabilitiesRequest, ControllerGetCapabilitiesResponse, R>
}

export interface NodeHandlers<R = never> {
  readonly NodePublishVolume: CsiHandler<NodePublishVolumeRequest, NodePublishVolumeResponse, R>
  readonly NodeUnpublishVolume: CsiHandler<NodeUnpublishVolumeRequest, NodeUnpublishVolumeResponse, R>
  readonly NodeGetCapabilities: CsiHandler<NodeGetCapabilitiesRequest, NodeGetCapabilitiesResponse, R>
  readonly NodeGetInfo: CsiHandler<NodeGetInfoRequest, NodeGetInfoResponse, R>
}

/** The complete services this driver builds (`identity.ts`, `controllerService.ts`, `nodeService.ts`). */
export interface IdentityService<R = never> {
  readonly name: "Identity"
  readonly handlers: IdentityHandlers<R>
}
export interface ControllerService<R = never> {
  readonly name: "Controller"
  readonly handlers: ControllerHandlers<R>
}
export interface NodeService<R = never> {
  readonly name: "Node"
  readonly handlers: NodeHandlers<R>
}

/** One csi.v1 service to serve. A handler left out answers UNIMPLEMENTED. */
export type CsiService<R = never> =
  | { readonly name: "Identity"; readonly handlers: Partial<IdentityHandlers<R>> }
  | { readonly name: "Controller"; readonly handlers: Partial<ControllerHandlers<R>> }
  | { readonly name: "Node"; readonly handlers: Partial<NodeHandlers<R>> }

export interface CsiServerOptions<R> {
  /** A socket path (`/csi/csi.sock`, relative paths resolve against the working directory), or `unix://` + absolute path, or `unix:` + path. */
  readonly endpoint: string
  /** Identity must be one of them; each service at most once. */
  readonly services: ReadonlyArray<CsiService<R>>
  /** How long graceful shutdown waits for in-flight calls before cancelling them. Default 5 seconds. */
  readonly shutdownTimeout?: Duration.Input | undefined
  /** Replace a live socket at the endpoint (the node plugin's surge update) instead of refusing it. */
  readonly takeOver?: boolean | undefined
}

export interface CsiServer {
  /** The absolute socket path being served. */
  readonly socketPath: string
  readonly services: ReadonlyArray<CsiServiceName>
}

type Run<R> = (effect: Effect.Effect<void, never, R>) => Fiber.Fiber<void, never>

type AnyHandler<R> = (request: unknown) => Effect.Effect<unknown, CsiError, R>

const exitStatus = (exit: Exit.Exit<unknown, CsiError>, cancelled: boolean): CallStatus | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  const error = Cause.findError(exit.cause)
  if (Result.isSuccess(error)) return callStatusOf(error.success)
  const defect = Cause.findDefect(exit.cause)
  if (Result.isSuccess(defect)) return defectStatus(defect.success)
  return cancelled
    ? { code: GrpcStatus.CANCELLED, details: "call cancelled" }
    : { code: GrpcStatus.UNAVAILABLE, details: "the CSI server is shutting down" }
}

const logCall = (
  method: string,
  exit: Exit.Exit<unknown, CsiError>,
  outcome: CallStatus | undefined,
  durationMs: number
): Effect.Effect<void> => {
  const code = statusName(outcome?.code ?? GrpcStatus.OK)
  const annotations = { rpc: method, code, durationMs }
  if (outcome === undefined) return Effect.logDebug("CSI call").pipe(Effect.annotateLogs(annotations))
  if (Exit.isFailure(exit) && Cause.hasDies(exit.cause)) {
    return Effect.logError("CSI call died", Cause.pretty(exit.cause)).pipe(Effect.annotateLogs(annotations))
  }
  return Effect.logWarning("CSI call failed", outcome.details).pipe(Effect.annotateLogs(annotations))
}

/** Sends the answer; a call the client already abandoned is not answered. */
const reply = (callback: sendUnaryData<object>, exit: Exit.Exit<unknown, CsiError>, outcome: CallStatus | undefined) =>
  Effect.try({
    try: () => {
      if (outcome === undefined) callback(null, Exit.isSuccess(exit) ? exit.value as object : {})
      else callback({ code: outcome.code, details: outcome.details })
    },
    catch: (cause) => cause
  }).pipe(Effect.catch((cause) => Effect.logError("cannot send the CSI answer", cause)))

/** grpc-js's deadline of a call (a Date, or a number: Infinity when the client set none) as epoch ms. */
const deadlineMillis = (deadline: Date | number): number => deadline instanceof Date ? deadline.getTime() : deadline

const serveCall = <R>(
  path: string,
  handler: AnyHandler<R>,
  request: unknown,
  deadline: number,
  cancelled: () => boolean,
  callback: sendUnaryData<object>
): Effect.Effect<void, never, R> =>
  Effect.flatMap(Clock.currentTimeMillis, (started) =>
    Effect.suspend(() => handler(request)).pipe(
      // A handler that waits ends its wait in time to answer itself (effects/shared/CallDeadline.ts).
      Effect.provideService(CallDeadline, deadline),
      Effect.annotateLogs({ rpc: path }),
      Effect.onExit((exit) =>
        Effect.flatMap(Clock.currentTimeMillis, (finished) => {
          const outcome = exitStatus(exit, cancelled())
          return Effect.andThen(
            logCall(path, exit, outcome, finished - started),
            cancelled() ? Effect.void : reply(callback, exit, outcome)
          )
        })
      ),
      // Each CSI call is a trace of its own: its API requests inside it, and its log line
      // (above, inside the span) carries its trace id.
      Effect.withSpan(path, { root: true, kind: "server", attributes: { "rpc.system": "grpc", "rpc.method": path } }),
      Effect.exit,
      Effect.asVoid
    ))

/**
 * The grpc-js service for the handled methods: each call runs its handler in a fiber of
 * the server's scope, interrupted when grpc-js cancels the call (the client cancelled, its
 * deadline passed, or shutdown gave up waiting). Methods without a handler are left out,
 * and grpc-js answers them UNIMPLEMENTED.
 */
const grpcServiceOf = <R>(service: CsiService<R>, run: Run<R>): GrpcService => {
  const definition: Record<string, ServiceDefinition[string]> = {}
  const implementation: UntypedServiceImplementation = {}
  for (const [name, handler] of Object.entries(service.handlers as Record<string, AnyHandler<R> | undefined>)) {
    if (handler === undefined) continue
    const method = csiMethod(service.name, name)
    definition[name] = method
    implementation[name] = unaryHandler((request, call, callback) => {
      const fiber = run(serveCall(method.path, handler, request, deadlineMillis(call.getDeadline()), () => call.cancelled, callback))
      if (call.cancelled) fiber.interruptUnsafe()
      else call.once("cancelled", () => fiber.interruptUnsafe())
    })
  }
  return { definition, implementation }
}

const checkServices = <R>(services: ReadonlyArray<CsiService<R>>): Effect.Effect<void> => {
  const names = services.map((service) => service.name)
  if (!names.includes("Identity")) return Effect.die(new Error("a CSI endpoint must serve the Identity service"))
  if (new Set(names).size !== names.length) return Effect.die(new Error(`CSI services listed twice: ${names.join(", ")}`))
  return Effect.void
}

/**
 * Serves `services` on the endpoint until the scope closes. Succeeds once the socket is
 * bound and chmod 0600, i.e. when the endpoint is ready for the kubelet / sidecars.
 */
export const serveCsi = <R>(options: CsiServerOptions<R>): Effect.Effect<CsiServer, CsiServerError, Scope.Scope | R> =>
  Effect.gen(function*() {
    const { endpoint } = options
    yield* checkServices(options.services)
    const socketPath = yield* socketPathOf(endpoint)
    const timeout = Duration.fromInputUnsafe(options.shutdownTimeout ?? "5 seconds")
    // Created before the server, so it closes after it: graceful shutdown lets running
    // calls finish, then whatever is left is interrupted here.
    const run: Run<R> = yield* FiberSet.makeRuntime<R, void, never>()
    const grpcServices = yield* Effect.try({
      try: () => options.services.map((service) => grpcServiceOf(service, run)),
      catch: (cause) => new CsiServerError({ reason: "ProtoLoad", endpoint, message: "cannot build the CSI methods from the generated protocol code", cause })
    })
    yield* serveOnSocket({ services: grpcServices, socketPath, endpoint, shutdownTimeout: timeout, what: "CSI endpoint", takeOver: options.takeOver })

    const services = options.services.map((service) => service.name)
    yield* Effect.logInfo("CSI endpoint ready").pipe(Effect.annotateLogs({ socket: socketPath, services: services.join(",") }))
    return { socketPath, services }
  })
