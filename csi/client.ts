/**
 * A CSI gRPC client over a Unix socket, as Effects: what the kubelet stand-in of the
 * integration tests, the demo and the unit tests use to call the plugin exactly as a CO
 * would. A failed call is a `CsiCallError` carrying the gRPC code and message.
 */
import { Data, Duration, Effect } from "effect"
import type { Scope } from "effect"
import type { CsiServiceName } from "./proto.ts"
import { socketPathOf } from "./socket.ts"
import type { ControllerHandlers, IdentityHandlers, NodeHandlers } from "./server.ts"
import type { CsiServerError } from "./socket.ts"
import { statusName } from "./status.ts"
import { csiMethod } from "./wire/codec.ts"
import { GrpcStatus } from "./wire/grpcStatus.ts"
import { makeUnaryClient } from "./wire/unaryClient.ts"

type HandlersOf = {
  readonly Identity: IdentityHandlers
  readonly Controller: ControllerHandlers
  readonly Node: NodeHandlers
}
export type MethodOf<S extends CsiServiceName> = keyof HandlersOf[S] & string
type HandlerOf<S extends CsiServiceName, M extends MethodOf<S>> = HandlersOf[S][M] extends (request: infer Q) => Effect.Effect<infer A, infer _E, infer _R> ? { request: Q; response: A } : never
export type RequestOf<S extends CsiServiceName, M extends MethodOf<S>> = HandlerOf<S, M>["request"]
export type ResponseOf<S extends CsiServiceName, M extends MethodOf<S>> = HandlerOf<S, M>["response"]

export class CsiCallError extends Data.TaggedError("CsiCallError")<{
  /** e.g. `/csi.v1.Node/NodePublishVolume` */
  readonly rpc: string
  readonly code: GrpcStatus
  readonly details: string
  readonly message: string
}> {}

export interface CsiCallOptions {
  /** Deadline for the call; none by default. */
  readonly timeout?: Duration.Input | undefined
}

export interface CsiClient {
  readonly call: <S extends CsiServiceName, M extends MethodOf<S>>(
    service: S,
    method: M,
    request: RequestOf<S, M>,
    options?: CsiCallOptions
  ) => Effect.Effect<ResponseOf<S, M>, CsiCallError>
}

const callError = (rpc: string, code: GrpcStatus, details: string): CsiCallError =>
  new CsiCallError({ rpc, code, details, message: `${rpc}: ${statusName(code)}: ${details}` })

/** A client for every csi.v1 service on `endpoint` (same spelling as the server's); closed with the scope. */
export const makeCsiClient = (endpoint: string): Effect.Effect<CsiClient, CsiServerError, Scope.Scope> =>
  Effect.gen(function*() {
    const socketPath = yield* socketPathOf(endpoint)
    const client = yield* Effect.acquireRelease(Effect.sync(() => makeUnaryClient(socketPath)), (client) => Effect.sync(() => client.close()))
    const call: CsiClient["call"] = (service, method, request, options) =>
      Effect.gen(function*() {
        const codecs = csiMethod(service, method)
        const message = yield* Effect.try({
          try: () => codecs.request.encode(request as object),
          catch: (cause) => callError(codecs.path, GrpcStatus.INTERNAL, `cannot encode ${codecs.request.name}: ${String(cause)}`)
        })
        const timeoutMs = options?.timeout === undefined ? undefined : Duration.toMillis(Duration.fromInputUnsafe(options.timeout))
        const result = yield* Effect.promise((signal) => client.call(codecs.path, message, { timeoutMs, signal }))
        if (!result.ok) return yield* callError(codecs.path, result.code, result.details)
        return yield* Effect.try({
          try: () => codecs.response.decode(result.message) as ResponseOf<typeof service, typeof method>,
          catch: (cause) => callError(codecs.path, GrpcStatus.INTERNAL, `cannot decode ${codecs.response.name}: ${String(cause)}`)
        })
      })
    return { call }
  })
