/**
 * Is the live (cached) Service already what we would apply? Then the reconcile sends nothing.
 *
 * Two checks, both needed:
 * - every field we apply is present in the live object with the same value (the live object
 *   also holds what the API server defaulted — clusterIP, nodePort, targetPort, … — and what
 *   other managers own, which we ignore): catches drift someone else caused;
 * - the fingerprint annotation equals the desired one: catches fields we applied before and
 *   dropped since (server-side apply would remove them; they are still in the live object).
 */
import { APPLIED_FINGERPRINT_ANNOTATION } from "./desiredService.ts"
import type { DesiredService } from "./desiredService.ts"
import { isJsonObject, jsonEquals } from "./json.ts"

/** `desired` is contained in `live`: objects by key, lists entry by entry (each desired entry has a containing live entry). */
export const isContainedIn = (desired: unknown, live: unknown): boolean => {
  if (isJsonObject(desired)) {
    if (!isJsonObject(live)) return false
    return Object.entries(desired).every(([key, value]) => value === undefined || isContainedIn(value, live[key]))
  }
  if (Array.isArray(desired)) {
    if (!Array.isArray(live) || live.length < desired.length) return false
    // Lists of scalars and lists of objects alike: the server may reorder a list-map
    // (ports are keyed by port+protocol) and other managers may add entries.
    return desired.every((entry, index) =>
      isContainedIn(entry, live[index]) || live.some((candidate) => isContainedIn(entry, candidate))
    )
  }
  // Core types drop zero values on the wire (omitempty): an applied `false` comes back absent.
  if (live === undefined && (desired === false || desired === 0 || desired === "")) return true
  return jsonEquals(desired, live)
}

export const serviceUpToDate = (desired: DesiredService, live: unknown): boolean => {
  if (!isJsonObject(live)) return false
  const liveAnnotations = isJsonObject(live["metadata"]) ? live["metadata"]["annotations"] : undefined
  const liveFingerprint = isJsonObject(liveAnnotations) ? liveAnnotations[APPLIED_FINGERPRINT_ANNOTATION] : undefined
  return liveFingerprint === desired.metadata.annotations[APPLIED_FINGERPRINT_ANNOTATION] && isContainedIn(desired, live)
}
