/**
 * Protobuf encoding of the messages we serve, from the static code generated out of our
 * .proto files (`csi/generated/messages.js`, `npm run proto`): no .proto parsing at start
 * and no reflection, which is most of what a gRPC library costs a process.
 *
 * Decoded messages are plain objects in one fixed shape, the one `csi/proto.ts` describes:
 * field names as in the .proto (snake_case), int64 as decimal strings, enums by name (a
 * number the .proto does not know stays a number), absent scalars, lists and maps as their
 * defaults, absent messages as `null`, and a oneof adds a field naming its member
 * (`access_type: "mount"`).
 */
import { csi, pluginregistration } from "../generated/messages.js"
import type { GeneratedMessageType } from "../generated/messages.js"
import { rpcPath } from "../proto.ts"
import type { CsiServiceName } from "../proto.ts"
import { GrpcStatus } from "./grpcStatus.ts"
import type { UnaryReply } from "./unaryServer.ts"

const TO_OBJECT = { longs: String, enums: String, defaults: true, oneofs: true }

export interface MessageCodec {
  /** The message's full name, e.g. `csi.v1.NodePublishVolumeRequest`. */
  readonly name: string
  /** Throws on bytes that are not this message. */
  decode(bytes: Uint8Array): Record<string, unknown>
  /** Throws on a value that cannot be this message. */
  encode(value: object): Uint8Array
}

const codecOf = (name: string, type: GeneratedMessageType | undefined): MessageCodec => {
  if (type === undefined) throw new Error(`message ${name} is not in the generated code (npm run proto)`)
  return {
    name,
    decode: (bytes) => type.toObject(type.decode(bytes), TO_OBJECT),
    encode: (value) => type.encode(type.fromObject(value)).finish()
  }
}

/** A message of package `csi.v1`, e.g. `csiMessage("ProbeResponse")`. */
export const csiMessage = (name: string): MessageCodec => codecOf(`csi.v1.${name}`, csi.v1[name])

/** A message of the kubelet's `pluginregistration` package. */
export const registrationMessage = (name: string): MessageCodec =>
  codecOf(`pluginregistration.${name}`, pluginregistration[name])

/** A unary RPC: its gRPC path and the codecs of its request and response. */
export interface UnaryMethod {
  readonly path: string
  readonly request: MessageCodec
  readonly response: MessageCodec
}

/** A csi.v1 RPC; every CSI method takes `<Method>Request` and returns `<Method>Response`. */
export const csiMethod = (service: CsiServiceName, method: string): UnaryMethod => ({
  path: rpcPath(service, method),
  request: csiMessage(`${method}Request`),
  response: csiMessage(`${method}Response`)
})

/** The request a call carries, or the INVALID_ARGUMENT reply naming the message it is not. */
export const decodeRequest = (
  method: UnaryMethod,
  bytes: Uint8Array
): { readonly ok: true; readonly request: Record<string, unknown> } | { readonly ok: false; readonly reply: UnaryReply } => {
  try {
    return { ok: true, request: method.request.decode(bytes) }
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    return { ok: false, reply: { ok: false, code: GrpcStatus.INVALID_ARGUMENT, details: `the request is not a valid ${method.request.name}: ${reason}` } }
  }
}
