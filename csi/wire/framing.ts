/**
 * The gRPC-over-HTTP/2 wire details a unary call needs (grpc/doc/PROTOCOL-HTTP2.md):
 * length-prefixed messages, the `grpc-timeout` header and the percent-encoded
 * `grpc-message` trailer. Pure functions over bytes and strings.
 */

/** gRPC's default limit for a received message (4 MiB), which grpc-go and grpc-js also apply. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024

const PREFIX_BYTES = 5

/** One message as it goes on the wire: compressed flag 0, 4-byte big-endian length, the bytes. */
export const frameMessage = (message: Uint8Array): Uint8Array => {
  const framed = new Uint8Array(PREFIX_BYTES + message.length)
  new DataView(framed.buffer).setUint32(1, message.length)
  framed.set(message, PREFIX_BYTES)
  return framed
}

export type UnframeResult =
  | { readonly ok: true; readonly message: Uint8Array }
  | { readonly ok: false; readonly problem: "compressed" | "malformed"; readonly detail: string }

/** The single message of a unary call's body; anything else is a protocol error said in words. */
export const unframeSingleMessage = (body: Uint8Array): UnframeResult => {
  if (body.length < PREFIX_BYTES) {
    return { ok: false, problem: "malformed", detail: body.length === 0 ? "the request has no message" : "the request ends inside a message prefix" }
  }
  const length = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(1)
  if (body[0] !== 0) {
    return body[0] === 1
      ? { ok: false, problem: "compressed", detail: "compressed messages are not supported (send grpc-encoding identity)" }
      : { ok: false, problem: "malformed", detail: `invalid compressed flag ${body[0]}` }
  }
  const end = PREFIX_BYTES + length
  if (body.length < end) return { ok: false, problem: "malformed", detail: `the message is cut short (${body.length - PREFIX_BYTES} of ${length} bytes)` }
  if (body.length > end) return { ok: false, problem: "malformed", detail: "a unary call carries exactly one message; more data followed it" }
  return { ok: true, message: body.subarray(PREFIX_BYTES, end) }
}

const TIMEOUT_UNIT_MS: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 }

/** `grpc-timeout` (e.g. `300m`, at most 8 digits and a unit) in milliseconds; `undefined` if absent or malformed. */
export const parseGrpcTimeout = (value: string | undefined): number | undefined => {
  const match = value === undefined ? null : /^(\d{1,8})([HMSmun])$/u.exec(value)
  return match === null ? undefined : Number(match[1]) * TIMEOUT_UNIT_MS[match[2]!]!
}

/** A `grpc-timeout` value for a deadline `ms` from now (whole milliseconds, at least 1). */
export const formatGrpcTimeout = (ms: number): string => `${Math.min(99_999_999, Math.max(1, Math.ceil(ms)))}m`

const isPlain = (byte: number): boolean => byte >= 0x20 && byte <= 0x7e && byte !== 0x25

/** `grpc-message`: UTF-8, with every byte outside printable ASCII, and `%`, percent-encoded. */
export const encodeGrpcMessage = (message: string): string => {
  let out = ""
  for (const byte of new TextEncoder().encode(message)) {
    out += isPlain(byte) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  }
  return out
}

/** The inverse of `encodeGrpcMessage`; a malformed escape, or a character sent unescaped, is kept as it was sent. */
export const decodeGrpcMessage = (value: string): string => {
  const encoder = new TextEncoder()
  const bytes: number[] = []
  for (let i = 0; i < value.length;) {
    const escape = value[i] === "%" ? /^[0-9A-Fa-f]{2}$/u.exec(value.slice(i + 1, i + 3)) : null
    if (escape !== null) {
      bytes.push(parseInt(escape[0], 16))
      i += 3
    } else {
      const character = String.fromCodePoint(value.codePointAt(i)!)
      bytes.push(...encoder.encode(character))
      i += character.length
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}
