/**
 * events.k8s.io/v1 Event: what the controller and node plugin report about failures
 * (spec §7). Times are RFC 3339 text with microseconds (MicroTime).
 */
import { Schema } from "effect"
import { NonNegativeInt, optional, Timestamp } from "../fields.ts"
import { NamespacedObjectMeta, ObjectReference } from "./meta.ts"

export const EventType = Schema.Literals(["Normal", "Warning"])
export type EventType = typeof EventType.Type

export const EventSeries = Schema.Struct({
  count: NonNegativeInt,
  lastObservedTime: Timestamp
})
export type EventSeries = typeof EventSeries.Type

export const Event = Schema.Struct({
  apiVersion: optional(Schema.Literal("events.k8s.io/v1")),
  kind: optional(Schema.Literal("Event")),
  metadata: NamespacedObjectMeta,
  eventTime: optional(Timestamp),
  reportingController: optional(Schema.String),
  reportingInstance: optional(Schema.String),
  action: optional(Schema.String),
  reason: optional(Schema.String),
  type: optional(EventType),
  note: optional(Schema.String),
  regarding: optional(ObjectReference),
  related: optional(ObjectReference),
  series: optional(EventSeries),
  deprecatedCount: optional(NonNegativeInt),
  deprecatedFirstTimestamp: optional(Timestamp),
  deprecatedLastTimestamp: optional(Timestamp)
})
export type Event = typeof Event.Type
