/** The CSI edge: the gRPC server on a Unix socket, the three services and the error→status table. */
export * from "./server.ts"
export * from "./identity.ts"
export * from "./controllerService.ts"
export * from "./nodeService.ts"
export * from "./programs.ts"
export * from "./status.ts"
export * from "./volumePrograms.ts"
export { makeCsiClient } from "./client.ts"
