/**
 * The CustomResourceDefinitions of ListenerClass, Listener and PodListeners, generated
 * from the domain Schemas (so fields, enums, defaults, validation and descriptions have
 * one source). `main.ts crd` prints `crdYaml()`; the committed copy is k8s/crds.yaml,
 * and a unit test fails when it drifts.
 */
import { Schema } from "effect"
import { stringify } from "yaml"
import { LISTENER_VERSION, MAX_LABEL_VALUE_LENGTH } from "../domain/constants.ts"
import { Kinds, resourceKeyOf, type ResourceKind } from "../domain/kinds.ts"
import { Listener } from "../domain/listener.ts"
import { ListenerClass } from "../domain/listenerClass.ts"
import { PodListeners } from "../domain/podListeners.ts"
import { openApiSchemaOf, type JsonSchemaNode } from "./openapi.ts"

export interface PrinterColumn {
  readonly name: string
  readonly type: "string" | "integer" | "number" | "boolean" | "date"
  readonly jsonPath: string
  readonly description?: string
  readonly priority?: number
}

export interface CustomResourceDefinition {
  readonly apiVersion: "apiextensions.k8s.io/v1"
  readonly kind: "CustomResourceDefinition"
  readonly metadata: { readonly name: string }
  readonly spec: {
    readonly group: string
    readonly names: {
      readonly kind: string
      readonly listKind: string
      readonly plural: string
      readonly singular: string
    }
    readonly scope: "Namespaced" | "Cluster"
    readonly versions: ReadonlyArray<{
      readonly name: string
      readonly served: boolean
      readonly storage: boolean
      readonly schema: { readonly openAPIV3Schema: JsonSchemaNode }
      readonly subresources?: { readonly status?: Record<string, never> }
      readonly additionalPrinterColumns: ReadonlyArray<PrinterColumn>
    }>
  }
}

const AGE: PrinterColumn = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" }

// Kubernetes owns these three; a CRD may not constrain metadata beyond name.
const commonProperties = (kind: ResourceKind): Record<string, JsonSchemaNode> => ({
  apiVersion: {
    description: `API version of this object: ${kind.group}/${kind.version}.`,
    type: "string"
  },
  kind: { description: `Kind of this object: ${kind.kind}.`, type: "string" },
  metadata: { type: "object" }
})

/** The object's schema with the Kubernetes-owned envelope (apiVersion, kind, metadata) replaced. */
const objectSchemaOf = (kind: ResourceKind, schema: Schema.Top): JsonSchemaNode => {
  const generated = openApiSchemaOf(schema)
  const properties = { ...(generated["properties"] as Record<string, JsonSchemaNode>), ...commonProperties(kind) }
  const required = (generated["required"] as ReadonlyArray<string> | undefined ?? [])
    .filter((key) => !(key in commonProperties(kind)))
  return {
    ...generated,
    properties: Object.fromEntries(Object.entries(properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ...(required.length > 0 ? { required } : {})
  }
}

interface CrdInput {
  readonly kind: ResourceKind
  readonly schema: Schema.Top
  readonly singular: string
  readonly statusSubresource: boolean
  readonly printerColumns: ReadonlyArray<PrinterColumn>
  /** CEL rules on the whole object (`x-kubernetes-validations` at the root). */
  readonly rootValidations?: ReadonlyArray<{ readonly rule: string; readonly message: string }>
}

const crdOf = (input: CrdInput): CustomResourceDefinition => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: resourceKeyOf(input.kind) },
  spec: {
    group: input.kind.group,
    names: {
      kind: input.kind.kind,
      listKind: `${input.kind.kind}List`,
      plural: input.kind.plural,
      singular: input.singular
    },
    scope: input.kind.namespaced ? "Namespaced" : "Cluster",
    versions: [{
      name: LISTENER_VERSION,
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          ...objectSchemaOf(input.kind, input.schema),
          ...(input.rootValidations !== undefined ? { "x-kubernetes-validations": input.rootValidations } : {})
        }
      },
      ...(input.statusSubresource ? { subresources: { status: {} } } : {}),
      additionalPrinterColumns: input.printerColumns
    }]
  }
})

/** The three CRDs, in install order (classes first: Listeners name them). */
export const crdManifests = (): ReadonlyArray<CustomResourceDefinition> => [
  crdOf({
    kind: Kinds.ListenerClass,
    schema: ListenerClass,
    singular: "listenerclass",
    statusSubresource: false,
    printerColumns: [
      { name: "Type", type: "string", jsonPath: ".spec.serviceType", description: "Service type of Listeners of this class" },
      { name: "Pinned", type: "boolean", jsonPath: ".spec.pinnedNodePorts", description: "Whether volumes are pinned to their first node" },
      { name: "Node-Loss-Recovery", type: "boolean", jsonPath: ".spec.pinnedNodeLossRecovery", description: "Whether volumes pinned to a lost node are released", priority: 1 },
      { name: "Node-Addresses", type: "string", jsonPath: ".spec.nodeAddressTypes", description: "Node address types published, in order of preference (NodePort classes)", priority: 1 },
      { name: "Hostname-Template", type: "string", jsonPath: ".spec.hostnameTemplate", description: "The DNS name template of Listeners of this class", priority: 1 },
      AGE
    ]
  }),
  crdOf({
    kind: Kinds.Listener,
    schema: Listener,
    singular: "listener",
    statusSubresource: true,
    // The name is a label value on the Service, the Pods and the PVs: refuse what cannot be one.
    rootValidations: [{
      rule: `size(self.metadata.name) <= ${MAX_LABEL_VALUE_LENGTH}`,
      message: `metadata.name must be at most ${MAX_LABEL_VALUE_LENGTH} characters: a Listener's name is used as a label value`
    }],
    // The API server prints only the first match of an array path, so Addresses shows the
    // first (default) address.
    printerColumns: [
      { name: "Class", type: "string", jsonPath: ".spec.className", description: "The ListenerClass" },
      { name: "Service", type: "string", jsonPath: ".status.serviceName", description: "The backing Service" },
      { name: "Addresses", type: "string", jsonPath: ".status.ingressAddresses[*].address", description: "First address the Listener is reachable on (all of them: .status.ingressAddresses)" },
      AGE
    ]
  }),
  crdOf({
    kind: Kinds.PodListeners,
    schema: PodListeners,
    // Plural and singular coincide, as in the seeds' API.
    singular: "podlisteners",
    statusSubresource: false,
    printerColumns: [AGE]
  })
]

/** The CRDs as one multi-document YAML stream (what `main.ts crd` prints). */
export const crdYaml = (): string =>
  crdManifests().map((crd) => `---\n${stringify(crd, { lineWidth: 0 })}`).join("")
