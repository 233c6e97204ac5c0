/**
 * metav1.Condition, the standard status condition shape, with the API server's own
 * validation (so a Listener status we write is accepted, and `kubectl wait
 * --for=condition=Ready` works).
 */
import { Schema } from "effect"
import { NonNegativeInt, optional, Timestamp } from "./fields.ts"
import { ConditionStatus } from "./core/meta.ts"

export { ConditionStatus }

const CONDITION_TYPE_PATTERN =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/u
const CONDITION_REASON_PATTERN = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/u

export const Condition = Schema.Struct({
  type: Schema.String.check(Schema.isMaxLength(316), Schema.isPattern(CONDITION_TYPE_PATTERN, { expected: "a condition type in CamelCase, optionally prefixed by a DNS subdomain and '/'" }))
    .annotate({ description: "Type of condition in CamelCase, for example Ready." }),
  status: ConditionStatus.annotate({ description: "Status of the condition: True, False or Unknown." }),
  observedGeneration: optional(NonNegativeInt.annotate({
    description: "The .metadata.generation the condition was set from; older than the object's generation means the condition is stale."
  })),
  lastTransitionTime: Timestamp.annotate({ description: "When the condition last changed from one status to another." }),
  reason: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1024), Schema.isPattern(CONDITION_REASON_PATTERN, { expected: "a CamelCase reason" }))
    .annotate({ description: "Programmatic identifier (CamelCase) for the condition's last transition." }),
  message: Schema.String.check(Schema.isMaxLength(32768))
    .annotate({ description: "Human-readable details about the transition; may be empty." })
}).annotate({ description: "One aspect of the object's current state (metav1.Condition)." })
export type Condition = typeof Condition.Type
