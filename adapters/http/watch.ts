/**
 * The watch wire format: one JSON object per line, `{"type": ..., "object": ...}`.
 * Pure decoding of one line; the streaming itself lives in `request.ts`.
 *
 * An ERROR event carries a `Status` (code 410 "Expired" when the resourceVersion is too
 * old — the caller relists) and ends the watch.
 */
import type { KubeApiError, KubeObject, WatchEvent, WatchEventType } from "../../effects/shared/KubeApi.ts"
import { errorFromBadAnswer, errorFromResponse } from "./errors.ts"
import type { RequestTarget } from "../../effects/shared/KubeApi.ts"

export type WatchLine =
  | { readonly _tag: "Event"; readonly event: WatchEvent }
  | { readonly _tag: "Failure"; readonly error: KubeApiError }
  | { readonly _tag: "Blank" }

const eventTypes: ReadonlySet<string> = new Set<WatchEventType>(["ADDED", "MODIFIED", "DELETED", "BOOKMARK"])

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const isKubeObject = (u: unknown): u is KubeObject => isObject(u) && isObject(u["metadata"])

export const parseWatchLine = (target: RequestTarget, line: string): WatchLine => {
  const text = line.trim()
  if (text === "") return { _tag: "Blank" }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (cause) {
    return { _tag: "Failure", error: errorFromBadAnswer(target, `undecodable watch event: ${text.slice(0, 200)}`, cause) }
  }
  if (!isObject(parsed) || typeof parsed["type"] !== "string") {
    return { _tag: "Failure", error: errorFromBadAnswer(target, `watch event without a type: ${text.slice(0, 200)}`) }
  }
  const type = parsed["type"]
  const object = parsed["object"]
  // 500 when an ERROR event carries no usable Status: the server failed the watch.
  if (type === "ERROR") return { _tag: "Failure", error: errorFromResponse(target, 500, object) }
  if (!eventTypes.has(type) || !isKubeObject(object)) {
    return { _tag: "Failure", error: errorFromBadAnswer(target, `unexpected watch event: ${text.slice(0, 200)}`) }
  }
  return { _tag: "Event", event: { type: type as WatchEventType, object } }
}
