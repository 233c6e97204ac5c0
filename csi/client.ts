/**
 * A CSI gRPC client over a Unix socket, as Effects: what the kubelet stand-in of the
 * integration tests and the unit tests use to call the plugin exactly as a CO would.
 * A failed call is a `CsiCallError` carrying the gRPC code and message.
 */
import { Client, credentials, status } from "@grpc/grpc-js"
import type { ServiceError } from "@grpc/grpc-js"
import { Data, Duration, Effect } from "effect"
import type { Scope } from "effect"
import { loadCsiPackage, rpcPath } from "./proto.ts"
import type { CsiProtoError, CsiServiceName } from "./proto.ts"
import { socketPathOf } from "./socket.ts"
import type { ControllerHandlers, IdentityHandlers, NodeHandlers } from "./server.ts"
import type { CsiServerError } from "./socket.ts"
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
  readonly code: status
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

type UnaryMethod = (
  request: unknown,
  options: { deadline?: Date },
  callback: (error: ServiceError | null, response?: unknown) => void
) => { cancel(): void }

/** A client for every csi.v1 service on `endpoint` (same spelling as the server's); closed with the scope. */
export const makeCsiClient = (endpoint: string): Effect.Effect<CsiClient, CsiServerError | CsiProtoError, Scope.Scope> =>
  Effect.gen(function*() {
    const socketPath = yield* socketPathOf(endpoint)
    const pkg = yield* loadCsiPackage
    const address = `unix://${socketPath}`
    const clients = yield* Effect.acquireRelease(
      Effect.sync(() => ({
        Identity: new pkg.Identity(address, credentials.createInsecure()),
        Controller: new pkg.Controller(address, credentials.createInsecure()),
        Node: new pkg.Node(address, credentials.createInsecure())
      }) satisfies Record<CsiServiceName, Client>),
      (all) => Effect.sync(() => Object.values(all).forEach((client) => client.close()))
    )
    const call: CsiClient["call"] = (service, method, request, options) =>
      Effect.callback((resume) => {
        const rpc = rpcPath(service, method)
        const unary = (clients[service] as unknown as Record<string, UnaryMethod>)[method]!.bind(clients[service])
        const callOptions = options?.timeout === undefined
          ? {}
          : { deadline: new Date(Date.now() + Duration.toMillis(options.timeout)) }
        const pending = unary(request, callOptions, (error, response) => {
          resume(
            error === null
              ? Effect.succeed(response as ResponseOf<typeof service, typeof method>)
              : Effect.fail(
                new CsiCallError({
                  rpc,
                  code: error.code,
                  details: error.details,
                  message: `${rpc}: ${statusName(error.code)}: ${error.details}`
                })
              )
          )
        })
        return Effect.sync(() => pending.cancel())
      })
    return { call }
  })
