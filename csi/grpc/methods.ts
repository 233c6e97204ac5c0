/**
 * grpc-js method definitions built by hand from the generated codecs (`codecs.ts`): what
 * @grpc/proto-loader would build from the .proto at start, without parsing it. Each
 * definition serves both sides — the server deserializes requests and serializes
 * responses, the client the other way round.
 *
 * The server's request deserializer never throws. grpc-js answers a throwing deserializer
 * with INTERNAL "Error deserializing request" (the reason hidden), but bytes that are not
 * the request message are the caller's mistake: the deserializer returns a `DecodedRequest`
 * and `unaryHandler` answers INVALID_ARGUMENT naming the message, before any handler runs.
 */
import { status } from "@grpc/grpc-js"
import type {
  deserialize,
  handleUnaryCall,
  sendUnaryData,
  serialize,
  ServerMethodDefinition,
  ServerUnaryCall
} from "@grpc/grpc-js"
import { rpcPath } from "../proto.ts"
import type { CsiServiceName } from "../proto.ts"
import { csiMessage } from "./codecs.ts"
import type { MessageCodec } from "./codecs.ts"

/** What the server's deserializer makes of a request's bytes. */
export type DecodedRequest =
  | { readonly ok: true; readonly request: Record<string, unknown> }
  | { readonly ok: false; readonly details: string }

/** A unary RPC: its path, its codecs, and grpc-js's four (de)serializers over them. */
export interface UnaryMethod extends ServerMethodDefinition<DecodedRequest, object> {
  /** e.g. `/csi.v1.Node/NodePublishVolume` */
  readonly path: string
  readonly request: MessageCodec
  readonly response: MessageCodec
  /** The client's side: throws on a value that cannot be the request message. */
  readonly requestSerialize: serialize<object>
  /** The client's side: throws (grpc-js: INTERNAL) on bytes that are not the response message. */
  readonly responseDeserialize: deserialize<Record<string, unknown>>
}

const decodeRequest = (codec: MessageCodec, bytes: Uint8Array): DecodedRequest => {
  try {
    return { ok: true, request: codec.decode(bytes) }
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    return { ok: false, details: `the request is not a valid ${codec.name}: ${reason}` }
  }
}

/** How proto-loader names a method for JavaScript: `GetInfo` → `getInfo`. */
const lowerCamel = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1)

export const unaryMethod = (path: string, request: MessageCodec, response: MessageCodec): UnaryMethod => ({
  path,
  originalName: lowerCamel(path.slice(path.lastIndexOf("/") + 1)),
  requestStream: false,
  responseStream: false,
  request,
  response,
  requestSerialize: (value) => request.encode(value),
  requestDeserialize: (bytes) => decodeRequest(request, bytes),
  responseSerialize: (value) => response.encode(value),
  responseDeserialize: (bytes) => response.decode(bytes)
})

/** A csi.v1 RPC; every CSI method takes `<Method>Request` and returns `<Method>Response`. */
export const csiMethod = (service: CsiServiceName, method: string): UnaryMethod =>
  unaryMethod(rpcPath(service, method), csiMessage(`${method}Request`), csiMessage(`${method}Response`))

/** A request handed to `serve`, whose answer goes to grpc-js's callback. */
export type ServeDecoded = (
  request: Record<string, unknown>,
  call: ServerUnaryCall<DecodedRequest, object>,
  callback: sendUnaryData<object>
) => void

/** A grpc-js handler that answers undecodable requests INVALID_ARGUMENT and serves the rest. */
export const unaryHandler = (serve: ServeDecoded): handleUnaryCall<DecodedRequest, object> => (call, callback) => {
  if (call.request.ok) serve(call.request.request, call, callback)
  else callback({ code: status.INVALID_ARGUMENT, details: call.request.details })
}
