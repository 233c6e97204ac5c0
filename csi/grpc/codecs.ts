/**
 * Protobuf encoding of the messages we serve, from the static code generated out of our
 * .proto files (`csi/generated/messages.js`, `npm run proto`): no .proto parsing at start
 * and no reflection. `methods.ts` hands these to grpc-js as its serialize/deserialize.
 *
 * Decoded messages are plain objects in one fixed shape, the one `csi/proto.ts` describes
 * (and @grpc/proto-loader would produce): field names as in the .proto (snake_case), int64
 * as decimal strings, enums by name (a number the .proto does not know stays a number),
 * absent scalars, lists and maps as their defaults, absent messages as `null`, and a oneof
 * adds a field naming its member (`access_type: "mount"`).
 */
import { csi, pluginregistration } from "../generated/messages.js"
import type { GeneratedMessageType } from "../generated/messages.js"

const TO_OBJECT = { longs: String, enums: String, defaults: true, oneofs: true }

export interface MessageCodec {
  /** The message's full name, e.g. `csi.v1.NodePublishVolumeRequest`. */
  readonly name: string
  /** Throws on bytes that are not this message. */
  decode(bytes: Uint8Array): Record<string, unknown>
  /** Throws on a value that cannot be this message. */
  encode(value: object): Buffer
}

const codecOf = (name: string, type: GeneratedMessageType | undefined): MessageCodec => {
  if (type === undefined) throw new Error(`message ${name} is not in the generated code (npm run proto)`)
  return {
    name,
    decode: (bytes) => type.toObject(type.decode(bytes), TO_OBJECT),
    encode: (value) => {
      const bytes = type.encode(type.fromObject(value)).finish()
      // grpc-js writes Buffers; protobufjs returns one on Node, a Uint8Array elsewhere.
      return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    }
  }
}

/** A message of package `csi.v1`, e.g. `csiMessage("ProbeResponse")`. */
export const csiMessage = (name: string): MessageCodec => codecOf(`csi.v1.${name}`, csi.v1[name])

/** A message of the kubelet's `pluginregistration` package. */
export const registrationMessage = (name: string): MessageCodec =>
  codecOf(`pluginregistration.${name}`, pluginregistration[name])
