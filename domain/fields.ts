/**
 * Field combinators shared by every domain Schema: how an optional, nullable or
 * defaulted JSON field of a Kubernetes object is decoded, and how that shows up in the
 * generated CRD schema (k8s/openapi.ts turns `X | null` into `nullable: true`).
 *
 * Why null is accepted everywhere a field is optional: clients written for this API in
 * other languages (the seeds' Rust operators) serialize an absent optional as `null`,
 * server-side apply does not prune such nulls, and the API server keeps `null` in fields
 * the CRD marks nullable (which every optional field here is). A decoded value
 * never contains that `null`: it becomes "absent" (`optional`) or the default
 * (`withDefault`), so the rest of the code only ever checks for `undefined`.
 */
import { Option, Schema, SchemaGetter } from "effect"

const dropNull = <E>(o: Option.Option<E | null>): Option.Option<E> =>
  Option.filter(o, (v): v is E => v !== null)

/**
 * An optional key that also accepts `null` on the wire; decodes to an absent key.
 * Annotate (describe) the inner schema, not the result.
 */
export const optional = <S extends Schema.Top>(self: S) =>
  Schema.optionalKey(Schema.NullOr(Schema.toEncoded(self))).pipe(
    Schema.decodeTo(Schema.optionalKey(self), {
      decode: SchemaGetter.transformOptional(dropNull<S["Encoded"]>),
      encode: SchemaGetter.passthroughSubtype<S["Encoded"] | null, S["Encoded"]>()
    })
  )

/**
 * An optional key whose absence (or `null`) decodes to `value`. The default is also
 * written into the generated JSON Schema, so the API server applies it at admission.
 */
export const withDefault = <S extends Schema.Top>(self: S, value: S["Encoded"]) =>
  Schema.optionalKey(Schema.NullOr(Schema.toEncoded(self).annotate({ default: value }))).pipe(
    Schema.decodeTo(self, {
      decode: SchemaGetter.transformOptional((o: Option.Option<S["Encoded"] | null>) =>
        Option.orElseSome(dropNull(o), () => value)
      ),
      encode: SchemaGetter.passthroughSubtype<S["Encoded"] | null, S["Encoded"]>()
    })
  )

/** A map of strings (labels, annotations, selectors). */
export const StringMap = Schema.Record(Schema.String, Schema.String)
export type StringMap = typeof StringMap.Type

/**
 * A JSON object of any shape, kept verbatim (overrides, partial objects). The CRD marks
 * it `x-kubernetes-preserve-unknown-fields` so the API server does not prune it.
 */
export const FreeFormObject = Schema.Record(Schema.String, Schema.Unknown).annotate({
  "x-kubernetes-preserve-unknown-fields": true
})
export type FreeFormObject = typeof FreeFormObject.Type

/** An integer TCP/UDP/SCTP port number. */
export const PortNumber = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 65535 })).annotate({
  format: "int32"
})

/** A non-negative integer (counts, generations). */
export const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** RFC 1123 label: lower-case alphanumerics and '-', starting and ending alphanumeric, ≤ 63. */
export const DNS_LABEL_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/u

/** RFC 1123 subdomain: what Kubernetes accepts as the name of most objects (PV, PVC, Pod, Listener). */
export const DNS_SUBDOMAIN_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/u

/** Whether `value` can name such an object (at most 253 characters). */
export const isObjectName = (value: string): boolean => value.length <= 253 && DNS_SUBDOMAIN_PATTERN.test(value)

export const DnsLabel = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(63),
  Schema.isPattern(DNS_LABEL_PATTERN, {
    expected: "a DNS label (RFC 1123: lower-case letters, digits and '-', starting and ending with a letter or digit)"
  })
)

/** An RFC 3339 timestamp as the API server writes it (kept as text). */
export const Timestamp = Schema.String.annotate({ format: "date-time" })
