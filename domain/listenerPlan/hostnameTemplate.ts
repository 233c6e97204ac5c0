/**
 * Hostname templates (spec §7): a ListenerClass may name every Listener of the class with a
 * DNS name built from a template such as `{listener}.{namespace}.kafka.example.com`. Once
 * the class has an address for a Listener, that name is what the Listener publishes (a
 * Hostname address with the same ports), and it may be written on the Service for
 * external-dns, which makes the name resolve to the load balancer or node behind it.
 *
 * Placeholders: `{listener}`, `{namespace}`, `{class}` and `{ordinal}` — the replica
 * ordinal of a StatefulSet volume's Listener, i.e. the number its name ends in
 * (`listener-kafka-broker-2` → `2`). The template's characters are checked at admission
 * (CEL); the rendered name is checked here, since it depends on the names put into it.
 */
import { isDnsName } from "../addressSyntax.ts"
import type { ListenerIngress } from "./inputs.ts"

export const HOSTNAME_PLACEHOLDERS = ["listener", "namespace", "class", "ordinal"] as const
export type HostnamePlaceholder = typeof HOSTNAME_PLACEHOLDERS[number]

const PLACEHOLDER = `\\{(${HOSTNAME_PLACEHOLDERS.join("|")})\\}`

/** What admission accepts (RE2, for the CRD's CEL rule): lower-case DNS characters and placeholders. */
export const HOSTNAME_TEMPLATE_PATTERN = `^([a-z0-9.-]|${PLACEHOLDER})+$`

export interface HostnameTemplateInputs {
  readonly listener: string
  readonly namespace: string
  readonly className: string
}

export type RenderedHostname =
  | { readonly _tag: "Rendered"; readonly hostname: string }
  | { readonly _tag: "Unusable"; readonly problem: string }

/** The replica ordinal in a Listener's name: the digits after its last '-'. */
export const ordinalOf = (listenerName: string): string | undefined => /-([0-9]+)$/u.exec(listenerName)?.[1]

/** The template with its placeholders filled in, or why it cannot name this Listener. */
export const renderHostname = (template: string, inputs: HostnameTemplateInputs): RenderedHostname => {
  if (!new RegExp(HOSTNAME_TEMPLATE_PATTERN, "u").test(template)) {
    return { _tag: "Unusable", problem: `hostnameTemplate ${JSON.stringify(template)} may only hold lower-case letters, digits, '-', '.' and {${HOSTNAME_PLACEHOLDERS.join("}, {")}}` }
  }
  const ordinal = ordinalOf(inputs.listener)
  if (template.includes("{ordinal}") && ordinal === undefined) {
    return { _tag: "Unusable", problem: `hostnameTemplate uses {ordinal}, but Listener ${inputs.listener} is not a StatefulSet replica's (its name does not end in -<number>)` }
  }
  const values: Record<HostnamePlaceholder, string> = { listener: inputs.listener, namespace: inputs.namespace, class: inputs.className, ordinal: ordinal ?? "" }
  const hostname = template.replace(new RegExp(PLACEHOLDER, "gu"), (_, name: HostnamePlaceholder) => values[name])
  return isDnsName(hostname)
    ? { _tag: "Rendered", hostname }
    : { _tag: "Unusable", problem: `hostnameTemplate ${JSON.stringify(template)} gives ${JSON.stringify(hostname)} for Listener ${inputs.listener}, which is not a DNS name (labels of 1–63 characters, 253 in all)` }
}

/**
 * What a Listener with a templated hostname publishes: the hostname, with the ports of the
 * class's own first address — once there is one (until then the name would point nowhere).
 */
export const templatedAddresses = (hostname: string, addresses: ReadonlyArray<ListenerIngress>): ReadonlyArray<ListenerIngress> =>
  addresses.length === 0 ? [] : [{ address: hostname, addressType: "Hostname", ports: { ...addresses[0]!.ports } }]
