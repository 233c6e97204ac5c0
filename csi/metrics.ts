/**
 * Metrics of the CSI calls this plugin serves, named and labelled as the Kubernetes CSI
 * sidecars and drivers name theirs (csi-lib-utils: subsystem `csi_plugin` for a driver,
 * `csi_sidecar` for a sidecar), so dashboards written for other drivers read ours:
 *
 *   csi_plugin_operations_seconds{driver_name, method_name, grpc_status_code}
 *
 * a histogram (its `_count` is the call count) with the sidecars' buckets; `method_name`
 * is the full gRPC method (`/csi.v1.Node/NodePublishVolume`), `grpc_status_code` the code's
 * Go name (`OK`, `Unavailable`, `FailedPrecondition`, ...).
 *
 * Measured around each handler — the same place whatever gRPC transport serves it — so
 * decoding failures the transport answers itself are not counted.
 */
import { Cause, Clock, Effect, Exit, Metric, Result } from "effect"
import { CSI_DRIVER_NAME } from "../domain/constants.ts"
import { rpcPath } from "./proto.ts"
import type { CsiService } from "./server.ts"
import { statusOf } from "./status.ts"
import type { CsiError } from "./status.ts"

export const csiOperationsSeconds = Metric.histogram("csi_plugin_operations_seconds", {
  description: "Container Storage Interface operation duration with gRPC error code status total",
  boundaries: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 25, 50, 120, 300, 600]
})

/** gRPC status codes by number, spelled as Go's `codes.Code.String()` (what the sidecars report). */
const GO_CODE_NAMES = [
  "OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound", "AlreadyExists", "PermissionDenied",
  "ResourceExhausted", "FailedPrecondition", "Aborted", "OutOfRange", "Unimplemented", "Internal", "Unavailable", "DataLoss",
  "Unauthenticated"
] as const

export const grpcCodeName = (code: number): string => GO_CODE_NAMES[code] ?? `Code(${code})`

/** The code a call ended with: a typed failure's (status.ts), INTERNAL for a defect, CANCELLED when interrupted. */
export const exitCodeName = (exit: Exit.Exit<unknown, CsiError>): string => {
  if (Exit.isSuccess(exit)) return "OK"
  const error = Cause.findError(exit.cause)
  if (Result.isSuccess(error)) return grpcCodeName(statusOf(error.success))
  return Cause.hasDies(exit.cause) ? "Internal" : "Canceled"
}

type AnyHandler<R> = (request: never) => Effect.Effect<unknown, CsiError, R>

const timed = <R>(method: string, handler: AnyHandler<R>) => (request: never) =>
  Effect.flatMap(Clock.currentTimeMillis, (started) =>
    Effect.onExit(Effect.suspend(() => handler(request)), (exit) =>
      Effect.flatMap(Clock.currentTimeMillis, (finished) =>
        Metric.update(
          Metric.withAttributes(csiOperationsSeconds, { driver_name: CSI_DRIVER_NAME, method_name: method, grpc_status_code: exitCodeName(exit) }),
          (finished - started) / 1000
        ))))

/** The same service, each handler timed into `csi_plugin_operations_seconds`. */
export const instrumentCsiService = <S extends CsiService<R>, R = never>(service: S): S => {
  const handlers = Object.fromEntries(
    Object.entries(service.handlers as Record<string, AnyHandler<R> | undefined>).flatMap(([name, handler]) =>
      handler === undefined ? [] : [[name, timed(rpcPath(service.name, name), handler)]])
  )
  return { ...service, handlers } as S
}
