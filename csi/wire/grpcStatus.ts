/**
 * gRPC status codes (the numbers every gRPC implementation shares, grpc/doc/statuscodes.md).
 * Ours rather than a gRPC library's, so the roles load no gRPC library at all.
 */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16
} as const

export type GrpcStatus = typeof GrpcStatus[keyof typeof GrpcStatus]

const names: ReadonlyMap<number, string> = new Map(Object.entries(GrpcStatus).map(([name, code]) => [code, name]))

/** The readable name of a code, e.g. `INVALID_ARGUMENT`; an unknown number as itself. */
export const grpcStatusName = (code: number): string => names.get(code) ?? String(code)

/** A code a peer sent (a header value); anything that is not a known code is UNKNOWN, as gRPC specifies. */
export const grpcStatusOf = (value: string | undefined): GrpcStatus => {
  const code = Number(value)
  return names.has(code) && value !== undefined && value.trim() !== "" ? code as GrpcStatus : GrpcStatus.UNKNOWN
}
