/**
 * Label and field selectors with the API server's grammar (k8s.io/apimachinery
 * pkg/labels and pkg/fields): parse once, then match objects. Parse failures are plain
 * messages; the caller turns them into 400 BadRequest like the server does.
 */
import type { ResourceKind } from "../../domain/kinds.ts"
import { resourceKeyOf } from "../../domain/kinds.ts"
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import { isObject } from "./json.ts"
import { labelValueProblems, qualifiedNameProblems } from "./validation.ts"

// --- label selectors ----------------------------------------------------------------

export type LabelOperator = "in" | "notin" | "=" | "==" | "!=" | "exists" | "!" | "gt" | "lt"

export interface LabelRequirement {
  readonly key: string
  readonly operator: LabelOperator
  readonly values: ReadonlyArray<string>
}

export type LabelSelector = ReadonlyArray<LabelRequirement>

type Token =
  | { readonly tok: "id"; readonly lit: string }
  | { readonly tok: "in" | "notin" | "!" | "!=" | "=" | "==" | ">" | "<" | "(" | ")" | "," | "end"; readonly lit: string }
  | { readonly tok: "error"; readonly lit: string }

const SPECIAL = new Set(["=", "!", "(", ")", ",", ">", "<"])
const WHITESPACE = new Set([" ", "\t", "\r", "\n"])
const SYMBOLS = new Set(["!", "!=", "=", "==", ">", "<", "(", ")", ","])

const lex = (input: string): Array<Token> => {
  const tokens: Array<Token> = []
  let i = 0
  for (;;) {
    while (i < input.length && WHITESPACE.has(input[i]!)) i++
    if (i >= input.length) {
      tokens.push({ tok: "end", lit: "" })
      return tokens
    }
    const ch = input[i]!
    if (SPECIAL.has(ch)) {
      // Longest run of special characters that still forms a known symbol.
      let buffer = ""
      let last: string | undefined
      let j = i
      while (j < input.length && SPECIAL.has(input[j]!)) {
        buffer += input[j]
        if (SYMBOLS.has(buffer)) {
          last = buffer
          j++
        } else if (last !== undefined) {
          break
        } else {
          j++
        }
      }
      if (last === undefined) {
        tokens.push({ tok: "error", lit: `error expected: keyword found '${buffer}'` })
        return tokens
      }
      i += last.length
      tokens.push({ tok: last as "!", lit: last })
      continue
    }
    let j = i
    while (j < input.length && !SPECIAL.has(input[j]!) && !WHITESPACE.has(input[j]!)) j++
    const word = input.slice(i, j)
    i = j
    tokens.push(word === "in" || word === "notin" ? { tok: word, lit: word } : { tok: "id", lit: word })
  }
}

const OPERATORS_TEXT = "in, notin, =, ==, !=, gt, lt"

const validateRequirement = (r: LabelRequirement): string | undefined => {
  const keyProblems = qualifiedNameProblems(r.key)
  if (keyProblems.length > 0) return `key: Invalid value: ${JSON.stringify(r.key)}: ${keyProblems.join("; ")}`
  switch (r.operator) {
    case "in":
    case "notin":
      if (r.values.length === 0) return "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"
      break
    case "=":
    case "==":
    case "!=":
      if (r.values.length !== 1) return "values: Invalid value: []: exact-match compatibility requires one single value"
      break
    case "gt":
    case "lt":
      if (r.values.length !== 1 || !/^-?\d+$/.test(r.values[0]!)) {
        return `values[0]: Invalid value: ${JSON.stringify(r.values[0] ?? "")}: for 'Gt', 'Lt' operators, the value must be an integer`
      }
      return undefined
    default:
      return undefined
  }
  for (const [i, v] of r.values.entries()) {
    const problems = labelValueProblems(v)
    if (problems.length > 0) return `values[${i}]: Invalid value: ${JSON.stringify(v)}: ${problems.join("; ")}`
  }
  return undefined
}

/** Parses `a=b,c!=d,e in (x,y),f notin (z),g,!h,n>1`; returns the requirements or an error message. */
export const parseLabelSelector = (input: string): LabelSelector | { readonly error: string } => {
  const tokens = lex(input)
  let pos = 0
  const peek = (values = false): Token => {
    const t = tokens[pos]!
    return values && (t.tok === "in" || t.tok === "notin") ? { tok: "id", lit: t.lit } : t
  }
  const next = (values = false): Token => {
    const t = peek(values)
    pos++
    return t
  }
  const requirements: Array<LabelRequirement> = []
  const fail = (message: string) => ({ error: `unable to parse requirement: ${message}` })
  for (;;) {
    const first = peek(true)
    if (first.tok === "end") break
    if (first.tok === "error") return fail(first.lit)
    if (first.tok !== "id" && first.tok !== "!") {
      return { error: `found '${first.lit}', expected: !, identifier, or 'end of string'` }
    }
    let requirement: LabelRequirement
    if (first.tok === "!") {
      next()
      const key = next(true)
      if (key.tok !== "id") return fail(`found '${key.lit}', expected: identifier`)
      requirement = { key: key.lit, operator: "!", values: [] }
    } else {
      const key = next(true)
      const op = peek()
      if (op.tok === "end" || op.tok === ",") {
        requirement = { key: key.lit, operator: "exists", values: [] }
      } else {
        next()
        switch (op.tok) {
          case "in":
          case "notin": {
            const open = next()
            if (open.tok !== "(") return fail(`found '${open.lit}' expected: '('`)
            const values: Array<string> = []
            let closed = false
            let expectValue = true
            while (!closed) {
              const t = next(true)
              if (t.tok === ")") closed = true
              else if (t.tok === "," && !expectValue) expectValue = true
              else if (t.tok === ",") values.push("")
              else if (t.tok === "id" && expectValue) {
                values.push(t.lit)
                expectValue = false
              } else return fail(`found '${t.lit}', expected: ',', ')' or identifier`)
            }
            if (expectValue && values.length > 0) values.push("")
            requirement = { key: key.lit, operator: op.tok, values }
            break
          }
          case "=":
          case "==":
          case "!=":
          case ">":
          case "<": {
            const v = peek(true)
            let value = ""
            if (v.tok === "id") {
              next(true)
              value = v.lit
            } else if (v.tok !== "end" && v.tok !== ",") {
              return fail(`found '${v.lit}', expected: identifier`)
            }
            const operator: LabelOperator = op.tok === ">" ? "gt" : op.tok === "<" ? "lt" : op.tok
            requirement = { key: key.lit, operator, values: [value] }
            break
          }
          case "error":
            return fail(op.lit)
          default:
            return fail(`found '${op.lit}', expected: ${OPERATORS_TEXT}`)
        }
      }
    }
    const problem = validateRequirement(requirement)
    if (problem !== undefined) return fail(problem)
    requirements.push(requirement)
    const sep = next()
    if (sep.tok === "end") break
    if (sep.tok !== ",") return { error: `found '${sep.lit}', expected: ',' or 'end of string'` }
    const after = peek(true)
    if (after.tok !== "id" && after.tok !== "!") return { error: `found '${after.lit}', expected: identifier after ','` }
  }
  return requirements
}

export const matchesLabels = (selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean =>
  selector.every((r) => {
    const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key)
    const value = has ? labels![r.key]! : undefined
    switch (r.operator) {
      case "in":
      case "=":
      case "==":
        return value !== undefined && r.values.includes(value)
      case "notin":
      case "!=":
        return value === undefined || !r.values.includes(value)
      case "exists":
        return has
      case "!":
        return !has
      case "gt":
      case "lt": {
        if (value === undefined || !/^-?\d+$/.test(value)) return false
        const n = Number(value)
        const bound = Number(r.values[0])
        return r.operator === "gt" ? n > bound : n < bound
      }
    }
  })

// --- field selectors ----------------------------------------------------------------

export interface FieldRequirement {
  readonly field: string
  readonly operator: "=" | "!="
  readonly value: string
}

export type FieldSelector = ReadonlyArray<FieldRequirement>

const splitUnescaped = (input: string, separator: string): Array<string> => {
  const out: Array<string> = []
  let current = ""
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!
    if (ch === "\\" && i + 1 < input.length) {
      current += ch + input[i + 1]
      i++
    } else if (ch === separator) {
      out.push(current)
      current = ""
    } else {
      current += ch
    }
  }
  out.push(current)
  return out
}

const unescapeValue = (value: string): string | undefined => {
  let out = ""
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!
    if (ch === "\\") {
      const nextCh = value[i + 1]
      if (nextCh !== "\\" && nextCh !== "," && nextCh !== "=") return undefined
      out += nextCh
      i++
    } else if (ch === "," || ch === "=") {
      return undefined
    } else {
      out += ch
    }
  }
  return out
}

/** Parses `metadata.name=x,spec.nodeName!=y`; returns the requirements or an error message. */
export const parseFieldSelector = (input: string): FieldSelector | { readonly error: string } => {
  if (input.trim() === "") return []
  const out: Array<FieldRequirement> = []
  for (const part of splitUnescaped(input, ",")) {
    let match: { op: "=" | "!="; index: number; length: number } | undefined
    for (const [op, length] of [["!=", 2], ["==", 2], ["=", 1]] as const) {
      const index = part.indexOf(op)
      if (index >= 0) {
        match = { op: op === "==" ? "=" : op, index, length }
        break
      }
    }
    if (match === undefined) return { error: `invalid selector: '${input}'; can't understand '${part}'` }
    const field = part.slice(0, match.index).trim()
    const value = unescapeValue(part.slice(match.index + match.length))
    if (value === undefined) return { error: `invalid field selector value: '${part}'` }
    out.push({ field, operator: match.op, value })
  }
  return out
}

/** The selectable fields of an object, as strings (the server's `fields.Set`). */
export type FieldExtractor = (object: KubeObject) => Readonly<Record<string, string>>

export const matchesFields = (selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean =>
  selector.every((r) => (r.operator === "=" ? fields[r.field] === r.value : fields[r.field] !== r.value))

const str = (value: unknown): string => (typeof value === "string" ? value : "")
const bool = (value: unknown): string => (value === true ? "true" : "false")
const section = (object: KubeObject, key: string): Record<string, unknown> => {
  const value = object[key]
  return isObject(value) ? value : {}
}

const metaFields = (object: KubeObject): Record<string, string> => ({
  "metadata.name": object.metadata.name ?? "",
  "metadata.namespace": object.metadata.namespace ?? ""
})

/**
 * How one kind's field selectors behave on the real server: the labels it accepts, each
 * naming the field of the object's selectable set it compares (an alias names another
 * field), that set, and the refusal of any other label (its wording differs by kind).
 */
export interface FieldSelectorSupport {
  readonly labels: Readonly<Record<string, string>>
  readonly extract: FieldExtractor
  readonly unsupported: (label: string) => string
}

const asIs = (...labels: ReadonlyArray<string>): Record<string, string> => Object.fromEntries(labels.map((l) => [l, l]))

/** The refusal of kinds with their own field label conversion (and of custom resources). */
const labelNotSupported = (label: string): string => `field label not supported: ${label}`

/** Kinds without one fall back to apimachinery's DefaultMetaV1FieldSelectorConversion. */
const defaultSupport: FieldSelectorSupport = {
  labels: asIs("metadata.name", "metadata.namespace"),
  extract: metaFields,
  unsupported: (label) => `${JSON.stringify(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`
}

/** Events of both API groups: events.k8s.io names (`regarding`) or core/v1 names (`involvedObject`). */
const eventFields: FieldExtractor = (o) => {
  const regarding = isObject(o["regarding"]) ? o["regarding"] : section(o, "involvedObject")
  const source = isObject(o["deprecatedSource"]) ? o["deprecatedSource"] : section(o, "source")
  const reporting = str(o["reportingController"]) || str(o["reportingComponent"])
  return {
    ...metaFields(o),
    "involvedObject.kind": str(regarding["kind"]),
    "involvedObject.namespace": str(regarding["namespace"]),
    "involvedObject.name": str(regarding["name"]),
    "involvedObject.uid": str(regarding["uid"]),
    "involvedObject.apiVersion": str(regarding["apiVersion"]),
    "involvedObject.resourceVersion": str(regarding["resourceVersion"]),
    "involvedObject.fieldPath": str(regarding["fieldPath"]),
    "reason": str(o["reason"]),
    "reportingComponent": reporting,
    "source": str(source["component"]) || reporting,
    "type": str(o["type"])
  }
}

/**
 * The kinds with their own field label conversion on the real server
 * (pkg/apis/core/v1/conversion.go, pkg/apis/events/v1/conversion.go), by resource key.
 */
const builtInSupport: Readonly<Record<string, FieldSelectorSupport>> = {
  pods: {
    labels: {
      ...asIs(
        "metadata.name",
        "metadata.namespace",
        "spec.nodeName",
        "spec.restartPolicy",
        "spec.schedulerName",
        "spec.serviceAccountName",
        "spec.hostNetwork",
        "status.phase",
        "status.podIP",
        "status.podIPs",
        "status.nominatedNodeName"
      ),
      // old v1 clients' name for spec.nodeName
      "spec.host": "spec.nodeName"
    },
    extract: (o) => {
      const spec = section(o, "spec")
      const status = section(o, "status")
      const podIPs = Array.isArray(status["podIPs"]) ? status["podIPs"] : []
      return {
        ...metaFields(o),
        "spec.nodeName": str(spec["nodeName"]),
        "spec.restartPolicy": str(spec["restartPolicy"]),
        "spec.schedulerName": str(spec["schedulerName"]),
        "spec.serviceAccountName": str(spec["serviceAccountName"]),
        "spec.hostNetwork": bool(spec["hostNetwork"]),
        "status.phase": str(status["phase"]),
        "status.podIP": str(status["podIP"]),
        "status.podIPs": podIPs.map((p: unknown) => str(isObject(p) ? p["ip"] : undefined)).join(","),
        "status.nominatedNodeName": str(status["nominatedNodeName"])
      }
    },
    unsupported: labelNotSupported
  },
  nodes: {
    labels: asIs("metadata.name", "spec.unschedulable"),
    extract: (o) => ({ "metadata.name": o.metadata.name ?? "", "spec.unschedulable": bool(section(o, "spec")["unschedulable"]) }),
    unsupported: labelNotSupported
  },
  namespaces: {
    labels: asIs("metadata.name", "status.phase"),
    extract: (o) => ({ "metadata.name": o.metadata.name ?? "", "status.phase": str(section(o, "status")["phase"]) }),
    unsupported: labelNotSupported
  },
  services: {
    labels: asIs("metadata.name", "metadata.namespace", "spec.clusterIP", "spec.type"),
    extract: (o) => ({
      ...metaFields(o),
      "spec.clusterIP": str(section(o, "spec")["clusterIP"]),
      "spec.type": str(section(o, "spec")["type"])
    }),
    unsupported: labelNotSupported
  },
  secrets: {
    labels: asIs("metadata.name", "metadata.namespace", "type"),
    extract: (o) => ({ ...metaFields(o), "type": str(o["type"]) }),
    unsupported: labelNotSupported
  },
  events: {
    labels: asIs(
      "metadata.name",
      "metadata.namespace",
      "involvedObject.kind",
      "involvedObject.namespace",
      "involvedObject.name",
      "involvedObject.uid",
      "involvedObject.apiVersion",
      "involvedObject.resourceVersion",
      "involvedObject.fieldPath",
      "reason",
      "reportingComponent",
      "source",
      "type"
    ),
    extract: eventFields,
    unsupported: labelNotSupported
  },
  "events.events.k8s.io": {
    // the events.k8s.io names map onto the core/v1 field set
    labels: {
      ...asIs("metadata.name", "metadata.namespace", "reason", "type"),
      "regarding.kind": "involvedObject.kind",
      "regarding.namespace": "involvedObject.namespace",
      "regarding.name": "involvedObject.name",
      "regarding.uid": "involvedObject.uid",
      "regarding.apiVersion": "involvedObject.apiVersion",
      "regarding.resourceVersion": "involvedObject.resourceVersion",
      "regarding.fieldPath": "involvedObject.fieldPath",
      "reportingController": "reportingComponent"
    },
    extract: eventFields,
    unsupported: labelNotSupported
  }
}

/**
 * Built-in API groups have no dot or end in `.k8s.io`; every other group is served by
 * custom resource definitions (which need a dotted group outside k8s.io without approval).
 */
const isBuiltInGroup = (group: string): boolean => !group.includes(".") || group.endsWith(".k8s.io")

/**
 * Custom resources select by metadata.name, and metadata.namespace when namespaced
 * (apiextensions-apiserver's crConverter; this project's CRDs declare no selectableFields).
 */
const customResourceSupport = (kind: ResourceKind): FieldSelectorSupport => ({
  labels: kind.namespaced ? asIs("metadata.name", "metadata.namespace") : asIs("metadata.name"),
  extract: metaFields,
  unsupported: labelNotSupported
})

export const fieldSelectorSupportOf = (kind: ResourceKind): FieldSelectorSupport =>
  isBuiltInGroup(kind.group) ? builtInSupport[resourceKeyOf(kind)] ?? defaultSupport : customResourceSupport(kind)
