import { test } from "node:test"
import assert from "node:assert/strict"
import { Schema } from "effect"
import { openApiSchemaOf, StructuralSchemaError, toStructural } from "../../../k8s/openapi.ts"
import { FreeFormObject, optional, PortNumber, withDefault } from "../../../domain/fields.ts"

test("X | null becomes X with nullable; a nullable enum becomes an anchored pattern", () => {
  assert.deepEqual(toStructural({ anyOf: [{ type: "string", description: "d" }, { type: "null" }] }), { description: "d", nullable: true, type: "string" })
  assert.deepEqual(toStructural({ anyOf: [{ type: "string", enum: ["A.b", "C"] }, { type: "null" }] }), { nullable: true, pattern: "^(A\\.b|C)$", type: "string" })
  assert.deepEqual(toStructural({ type: "string", enum: ["A", "B"] }), { enum: ["A", "B"], type: "string" })
  assert.throws(() => toStructural({ anyOf: [{ type: "integer", enum: [1, 2] }, { type: "null" }] }), StructuralSchemaError)
})

test("allOf members merge into the node, keeping the tighter bound", () => {
  assert.deepEqual(
    toStructural({ type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, allOf: [{ minimum: 1, maximum: 65535, description: "port" }] }),
    { description: "port", maximum: 65535, minimum: 1, type: "integer" }
  )
  assert.throws(() => toStructural({ type: "string", pattern: "a", allOf: [{ pattern: "b" }] }), StructuralSchemaError)
})

test("additionalProperties: booleans are dropped, schemas kept unless beside properties", () => {
  assert.deepEqual(toStructural({ type: "object", properties: { a: { type: "string" } }, additionalProperties: true }), { properties: { a: { type: "string" } }, type: "object" })
  assert.deepEqual(toStructural({ type: "object", additionalProperties: { type: "string" } }), { additionalProperties: { type: "string" }, type: "object" })
  assert.deepEqual(toStructural({ type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "string" } }), { properties: { a: { type: "string" } }, type: "object" })
})

test("a single constant becomes a one-value enum", () => {
  assert.deepEqual(toStructural({ type: "string", const: "v1" }), { enum: ["v1"], type: "string" })
})

test("what has no structural form is refused with the path", () => {
  const refuses = (node: unknown, path: string, reason: RegExp) =>
    assert.throws(() => toStructural(node), (e: unknown) => e instanceof StructuralSchemaError && e.path === path && reason.test(e.message))
  refuses({ type: "object", properties: { a: { $ref: "#/$defs/A" } } }, "a", /\$ref/u)
  refuses({ type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "integer" }] } } }, "a", /unions/u)
  refuses({ type: "object", properties: { a: { oneOf: [{ type: "string" }] } } }, "a", /oneOf/u)
  refuses({ type: "array", items: {} }, "[*]", /needs a type/u)
  refuses({ type: "object", properties: { a: { type: "object" } } }, "a", /pruned/u)
  refuses({ type: "string", examples: ["x"] }, "", /examples/u)
})

test("an Effect Schema becomes a structural schema with defaults, bounds and free-form parts", () => {
  const schema = Schema.Struct({
    port: PortNumber.annotate({ description: "p" }),
    name: optional(Schema.String.annotate({ description: "n" })),
    flag: withDefault(Schema.Boolean.annotate({ description: "f" }), true),
    extra: withDefault(FreeFormObject.annotate({ description: "e" }), {})
  })
  assert.deepEqual(openApiSchemaOf(schema), {
    properties: {
      port: { description: "p", format: "int32", maximum: 65535, minimum: 1, type: "integer" },
      name: { description: "n", nullable: true, type: "string" },
      flag: { default: true, description: "f", nullable: true, type: "boolean" },
      extra: { default: {}, description: "e", nullable: true, type: "object", "x-kubernetes-preserve-unknown-fields": true }
    },
    required: ["port"],
    type: "object"
  })
})
