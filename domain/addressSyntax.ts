/**
 * Address syntax: decides whether a string is an IP address or a DNS name.
 *
 * Addresses come from places we do not control (a load balancer's status, a Node's
 * addresses) and end up as directory names inside a Pod's volume, so anything that is not
 * plainly an IP address or a DNS name — `..`, `/`, NUL, empty, over-long — is refused
 * before it can reach the filesystem.
 */
export type AddressKind = "IP" | "Hostname"

const IPV4_OCTET = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/
const DNS_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/
const MAX_DNS_NAME = 253

export const isIPv4 = (text: string): boolean => {
  const octets = text.split(".")
  return octets.length === 4 && octets.every((octet) => IPV4_OCTET.test(octet))
}

export const isIPv6 = (text: string): boolean => {
  if (text.length > 45 || text.includes("%")) return false // zone ids mean nothing off this host
  const halves = text.split("::")
  if (halves.length > 2) return false
  const groupsOf = (half: string): string[] | undefined => (half === "" ? [] : half.split(":"))
  const head = groupsOf(halves[0]!)
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : []
  if (head === undefined || tail === undefined) return false
  const all = [...head, ...tail]
  // An embedded IPv4 address may stand in the last two groups (e.g. ::ffff:192.0.2.1).
  const last = all[all.length - 1]
  const embedsV4 = last !== undefined && last.includes(".")
  if (embedsV4 && !isIPv4(last)) return false
  const hexGroups = embedsV4 ? all.slice(0, -1) : all
  if (!hexGroups.every((group) => HEX_GROUP.test(group))) return false
  const width = hexGroups.length + (embedsV4 ? 2 : 0)
  return halves.length === 2 ? width < 8 : width === 8
}

export const isIP = (text: string): boolean => isIPv4(text) || isIPv6(text)

/** An RFC 1123 DNS name (case-insensitive, no trailing dot), at most 253 characters. */
export const isDnsName = (text: string): boolean =>
  text.length > 0 && text.length <= MAX_DNS_NAME && text.split(".").every((label) => DNS_LABEL.test(label)) &&
  !isAllNumericDotted(text)

// "1.2.3.999" is neither a valid IPv4 address nor a name anyone means as a host name.
const isAllNumericDotted = (text: string): boolean => /^[0-9.]+$/.test(text)

/** What kind of address `text` is, or undefined when it is neither an IP address nor a DNS name. */
export const classifyAddress = (text: string): AddressKind | undefined =>
  isIP(text) ? "IP" : isDnsName(text) ? "Hostname" : undefined

/** Why `text` is not a usable address, for error messages; undefined when it is usable. */
export const addressProblem = (text: string): string | undefined => {
  if (text.length === 0) return "is empty"
  if (text.includes("\0")) return "contains a NUL character"
  if (text.includes("/")) return "contains '/'"
  if (text.length > MAX_DNS_NAME) return `is longer than ${MAX_DNS_NAME} characters`
  return classifyAddress(text) === undefined ? "is neither an IP address nor a DNS name" : undefined
}
