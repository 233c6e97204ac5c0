/**
 * The deadline of the call being served, as epoch milliseconds; +Infinity when the caller
 * set none. The CSI server provides it for each gRPC call (csi/server.ts, from grpc-js's
 * `call.getDeadline()`), so a program that waits — NodePublishVolume waiting for the
 * controller (listenerCatchUp.ts) — gives up in time to answer with its own error, instead of
 * being cut off by the transport with DEADLINE_EXCEEDED, which says nothing of why.
 */
import { Context } from "effect"

export const CallDeadline = Context.Reference<number>("listener-operator/effects/CallDeadline", {
  defaultValue: () => Number.POSITIVE_INFINITY
})

/**
 * How long before the call's deadline a wait ends: time to fail, record the explaining
 * Event and send the answer before the caller stops listening.
 */
export const DEADLINE_MARGIN_MS = 1000
