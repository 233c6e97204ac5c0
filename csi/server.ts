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
 * the scope owns; a cancelled call interrupts its fiber. A typed failure becomes the gRPC
 * status of `status.ts`, a defect becomes INTERNAL, an interruption UNAVAILABLE; nothing
 * escapes to crash the process. RPCs without a handler answer UNIMPLEMENTED. The transport
 * is `wire/unaryServer.ts` (gRPC on node:http2) with the generated codecs of `wire/codec.ts`.
 */
import { Cause, Clock, Duration, Effect, Exit, FiberSet, Result } from "effect"
import type { Fiber, Scope } from "effect"
import { rpcPath } from "./proto.ts"
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
import { serveOnSocket } from "./grpcSocket.ts"
import { CsiServerError, socketPathOf } from "./socket.ts"
import { callStatusOf, defectStatus, statusName } from "./status.ts"
import type { CallStatus, CsiError } from "./status.ts"
import { csiMethod, decodeRequest } from "./wire/codec.ts"
import type { UnaryMethod } from "./wire/codec.ts"
import { GrpcStatus } from "./wire/grpcStatus.ts"
import { makeUnaryServer } from "./wire/unaryServer.ts"
import type { UnaryReply, UnaryRoute } from "./wire/unaryServer.ts"

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

/** The answer on the wire: the encoded response, or the status of the failure. */
const replyOf = (method: UnaryMethod, exit: Exit.Exit<unknown, CsiError>, outcome: CallStatus | undefined): UnaryReply => {
  if (outcome !== undefined) return { ok: false, ...outcome }
  try {
    return { ok: true, message: method.response.encode(Exit.isSuccess(exit) ? exit.value as object : {}) }
  } catch (cause) {
    return { ok: false, ...defectStatus(new Error(`cannot encode ${method.response.name}`, { cause })) }
  }
}

const serveCall = <R>(
  method: UnaryMethod,
  handler: AnyHandler<R>,
  request: unknown,
  signal: AbortSignal,
  answer: (reply: UnaryReply) => void
): Effect.Effect<void, never, R> =>
  Effect.flatMap(Clock.currentTimeMillis, (started) =>
    Effect.suspend(() => handler(request)).pipe(
      Effect.withSpan(method.path),
      Effect.annotateLogs({ rpc: method.path }),
      Effect.onExit((exit) =>
        Effect.flatMap(Clock.currentTimeMillis, (finished) => {
          const outcome = exitStatus(exit, signal.aborted)
          return Effect.andThen(logCall(method.path, exit, outcome, finished - started), Effect.sync(() => answer(replyOf(method, exit, outcome))))
        })
      ),
      Effect.exit,
      Effect.asVoid
    ))

/** A route per handled method: decode, run the handler in its own fiber, encode. */
const routesOf = <R>(service: CsiService<R>, run: Run<R>): Array<[string, UnaryRoute]> =>
  Object.entries(service.handlers as Record<string, AnyHandler<R> | undefined>).flatMap(([name, handler]) => {
    if (handler === undefined) return []
    const method = csiMethod(service.name, name)
    const route: UnaryRoute = (call) =>
      new Promise<UnaryReply>((resolve) => {
        const decoded = decodeRequest(method, call.message)
        if (!decoded.ok) return resolve(decoded.reply)
        const fiber = run(serveCall(method, handler, decoded.request, call.signal, resolve))
        if (call.signal.aborted) fiber.interruptUnsafe()
        else call.signal.addEventListener("abort", () => fiber.interruptUnsafe(), { once: true })
      })
    return [[rpcPath(service.name, name), route]]
  })

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
    const routes = yield* Effect.try({
      try: () => new Map(options.services.flatMap((service) => routesOf(service, run))),
      catch: (cause) => new CsiServerError({ reason: "ProtoLoad", endpoint, message: "cannot build the CSI methods from the generated protocol code", cause })
    })
    yield* serveOnSocket({ server: makeUnaryServer(routes), socketPath, endpoint, shutdownTimeout: timeout, what: "CSI endpoint", takeOver: options.takeOver })

    const services = options.services.map((service) => service.name)
    yield* Effect.logInfo("CSI endpoint ready").pipe(Effect.annotateLogs({ socket: socketPath, services: services.join(",") }))
    return { socketPath, services }
  })
