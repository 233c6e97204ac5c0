// Types of messages.js, the static protobuf code `npm run proto` generates from
// csi/csi.proto and csi/registration.proto (protobufjs static-module, keep-case). Only what
// csi/grpc/codecs.ts uses is declared; the message types are looked up by name.
export interface GeneratedMessageType {
  decode(bytes: Uint8Array): object
  encode(message: object): { finish(): Uint8Array }
  fromObject(value: object): object
  toObject(message: object, options: object): Record<string, unknown>
}

export declare const csi: { readonly v1: Readonly<Record<string, GeneratedMessageType | undefined>> }
export declare const pluginregistration: Readonly<Record<string, GeneratedMessageType | undefined>>
