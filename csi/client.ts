/**
 * A CSI gRPC client over a Unix socket, as Effects: what the demo, library users and the
 * unit tests use to call the plugin exactly as a CO would. grpc-js with the same generated
 * codecs as the server (`grpc/methods.ts`); one channel for all three services. A failed
 * call is a `CsiCallError` carrying the gRPC code and message; interrupting a call cancels
 * it on the wire.
 */
import { Client, credentials, Metadata, status as GrpcStatus } from "@grpc/grpc-js"
import type { CallOptions } from "@grpc/grpc-js"
import { Data, Duration, Effect } from "effect"
import type { Scope } from "effect"
import type { CsiServiceName } from "./proto.ts"
import { socketPathOf } from "./socket.ts"
import type { ControllerHandlers, IdentityHandlers, NodeHandlers } from "./server.ts"
import type { CsiServerError } from "./socket.ts"
import { csiMethod } from "./grpc/methods.ts"
import { statusName } from "./status.ts"

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
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => new Client(`unix://${socketPath}`, credentials.createInsecure(), {
        "grpc.enable_channelz": 0,
        // Its own connection: never one another client opened to a socket since replaced (a node plugin handing over).
        "grpc.use_local_subchannel_pool": 1
      })),
      (client) => Effect.sync(() => client.close())
    )
    const call: CsiClient["call"] = (service, method, request, options) =>
      Effect.callback<ResponseOf<typeof service, typeof method>, CsiCallError>((resume) => {
        const definition = csiMethod(service, method)
        const callOptions: CallOptions = options?.timeout === undefined
          ? {}
          : { deadline: new Date(Date.now() + Duration.toMillis(Duration.fromInputUnsafe(options.timeout))) }
        const pending = client.makeUnaryRequest(
          definition.path,
          definition.requestSerialize,
          definition.responseDeserialize,
          request as object,
          new Metadata(),
          callOptions,
          (error, response) => {
            resume(
              error === null
                ? Effect.succeed(response as ResponseOf<typeof service, typeof method>)
                : Effect.fail(callError(definition.path, error.code, error.details))
            )
          }
        )
        return Effect.sync(() => pending.cancel())
      })
    return { call }
  })
