/**
 * Object metadata validation as the API server does it (apimachinery's
 * ValidateObjectMeta / ValidateObjectMetaUpdate, the name validators of each kind and the
 * label syntax), with the server's own wording so Invalid errors read the same.
 */
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import type { FieldError } from "./errors.ts"
import { forbiddenField, invalid, required } from "./errors.ts"
import { isObject } from "./json.ts"

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/

const SUBDOMAIN_TEXT =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
const LABEL_TEXT =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
const DNS1035_TEXT =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
const QUALIFIED_TEXT =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
const LABEL_VALUE_TEXT =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"

/** The problems of a value as a DNS-1123 subdomain (253 chars max). */
export const dnsSubdomainProblems = (value: string): Array<string> => {
  const out: Array<string> = []
  if (value.length > 253) out.push("must be no more than 253 characters")
  if (!DNS1123_SUBDOMAIN.test(value)) out.push(SUBDOMAIN_TEXT)
  return out
}

export const dnsLabelProblems = (value: string): Array<string> => {
  const out: Array<string> = []
  if (value.length > 63) out.push("must be no more than 63 characters")
  if (!DNS1123_LABEL.test(value)) out.push(LABEL_TEXT)
  return out
}

export const dns1035LabelProblems = (value: string): Array<string> => {
  const out: Array<string> = []
  if (value.length > 63) out.push("must be no more than 63 characters")
  if (!DNS1035_LABEL.test(value)) out.push(DNS1035_TEXT)
  return out
}

const pathSegmentProblems = (value: string): Array<string> => {
  if (value === "." || value === "..") return [`may not be '${value}'`]
  const out: Array<string> = []
  for (const bad of ["/", "%"]) if (value.includes(bad)) out.push(`may not contain '${bad}'`)
  return out
}

/** Label keys, annotation keys and finalizers: `[prefix/]name`. */
export const qualifiedNameProblems = (value: string): Array<string> => {
  const parts = value.split("/")
  let name = value
  const out: Array<string> = []
  if (parts.length === 2) {
    const [prefix, rest] = parts as [string, string]
    name = rest
    if (prefix.length === 0) out.push("prefix part must be non-empty")
    else for (const p of dnsSubdomainProblems(prefix)) out.push(`prefix part ${p}`)
  } else if (parts.length > 2) {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
    ]
  }
  if (name.length === 0) out.push("name part must be non-empty")
  else if (name.length > 63) out.push("name part must be no more than 63 characters")
  if (name.length > 0 && !QUALIFIED_NAME_PART.test(name)) out.push(QUALIFIED_TEXT)
  return out
}

export const labelValueProblems = (value: string): Array<string> => {
  const out: Array<string> = []
  if (value.length > 63) out.push("must be no more than 63 characters")
  if (!LABEL_VALUE.test(value)) out.push(LABEL_VALUE_TEXT)
  return out
}

/** How a kind validates `metadata.name` (each registry picks one). */
export type NameRule = "subdomain" | "label" | "dns1035" | "pathSegment"

export const nameProblems = (rule: NameRule, name: string): Array<string> => {
  switch (rule) {
    case "subdomain":
      return dnsSubdomainProblems(name)
    case "label":
      return dnsLabelProblems(name)
    case "dns1035":
      return dns1035LabelProblems(name)
    case "pathSegment":
      return pathSegmentProblems(name)
  }
}

export const validateLabels = (labels: unknown, field: string): Array<FieldError> => {
  if (!isObject(labels)) return []
  const out: Array<FieldError> = []
  for (const [key, value] of Object.entries(labels)) {
    for (const p of qualifiedNameProblems(key)) out.push(invalid(field, key, p))
    if (typeof value !== "string") out.push(invalid(field, value, "must be a string"))
    else for (const p of labelValueProblems(value)) out.push(invalid(field, value, p))
  }
  return out
}

const validateAnnotations = (annotations: unknown): Array<FieldError> => {
  if (!isObject(annotations)) return []
  const out: Array<FieldError> = []
  let size = 0
  for (const [key, value] of Object.entries(annotations)) {
    for (const p of qualifiedNameProblems(key.toLowerCase())) out.push(invalid("metadata.annotations", key, p))
    size += key.length + (typeof value === "string" ? value.length : 0)
  }
  if (size > 256 * 1024) {
    out.push({ type: "TooLong", field: "metadata.annotations", detail: "may not be more than 262144 bytes" })
  }
  return out
}

const validateOwnerReferences = (refs: unknown): Array<FieldError> => {
  if (refs === undefined) return []
  if (!Array.isArray(refs)) return [invalid("metadata.ownerReferences", refs, "must be a list")]
  const out: Array<FieldError> = []
  let controllers = 0
  refs.forEach((ref: unknown, i) => {
    const field = `metadata.ownerReferences[${i}]`
    if (!isObject(ref)) {
      out.push(invalid(field, ref, "must be an object"))
      return
    }
    for (const key of ["apiVersion", "kind", "name", "uid"]) {
      if (typeof ref[key] !== "string" || ref[key] === "") out.push(required(`${field}.${key}`, `${key} must not be empty`))
    }
    if (ref["controller"] === true) controllers++
  })
  if (controllers > 1) {
    out.push(invalid("metadata.ownerReferences", refs, "Only one reference can have Controller set to true."))
  }
  return out
}

const validateFinalizers = (finalizers: unknown): Array<FieldError> => {
  if (finalizers === undefined) return []
  if (!Array.isArray(finalizers)) return [invalid("metadata.finalizers", finalizers, "must be a list")]
  const out: Array<FieldError> = []
  for (const f of finalizers) {
    if (typeof f !== "string") {
      out.push(invalid("metadata.finalizers", f, "must be a string"))
      continue
    }
    for (const p of qualifiedNameProblems(f)) out.push(invalid("metadata.finalizers", f, p))
  }
  if (finalizers.includes("orphan") && finalizers.includes("foregroundDeletion")) {
    out.push(invalid("metadata.finalizers", finalizers, "finalizer orphan and foregroundDeletion cannot be both set"))
  }
  return out
}

/** ValidateObjectMeta for create, with the kind's name rule. */
export const validateMetadataForCreate = (
  object: KubeObject,
  options: { readonly nameRule: NameRule; readonly namespaced: boolean }
): Array<FieldError> => {
  const meta = object.metadata
  const out: Array<FieldError> = []
  if (meta.name === undefined || meta.name === "") {
    out.push(required("metadata.name", "name or generateName is required"))
  } else {
    for (const p of nameProblems(options.nameRule, meta.name)) out.push(invalid("metadata.name", meta.name, p))
  }
  if (options.namespaced) {
    if (meta.namespace === undefined || meta.namespace === "") out.push(required("metadata.namespace"))
    else for (const p of dnsLabelProblems(meta.namespace)) out.push(invalid("metadata.namespace", meta.namespace, p))
  }
  out.push(...validateLabels(meta.labels, "metadata.labels"))
  out.push(...validateAnnotations(meta.annotations))
  out.push(...validateOwnerReferences(meta.ownerReferences))
  out.push(...validateFinalizers(meta.finalizers))
  return out
}

/** ValidateObjectMetaUpdate: the create rules plus immutability and the deletion rules. */
export const validateMetadataForUpdate = (
  object: KubeObject,
  old: KubeObject,
  options: { readonly nameRule: NameRule; readonly namespaced: boolean }
): Array<FieldError> => {
  const out = validateMetadataForCreate(object, options).filter((e) => e.field !== "metadata.name")
  const meta = object.metadata
  if (meta.uid !== old.metadata.uid) out.push(invalid("metadata.uid", meta.uid, "field is immutable"))
  if (old.metadata.deletionTimestamp !== undefined) {
    const before = new Set(old.metadata.finalizers ?? [])
    const added = (meta.finalizers ?? []).filter((f) => !before.has(f))
    if (added.length > 0) {
      out.push(
        forbiddenField(
          "metadata.finalizers",
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${
            added.map((f) => JSON.stringify(f)).join(", ")
          }}`
        )
      )
    }
  }
  return out
}
