/**
 * The listener volume's file tree, as data.
 *
 *     addresses/<address>/address          the address, no trailing newline
 *     addresses/<address>/ports/<port>     the exposed port number, no trailing newline
 *     default-address -> addresses/<first address>   (relative symlink)
 *
 * Planning the tree is pure so that every name that becomes a path is checked here, once:
 * an address or port name that could escape the volume (`..`, `/`, NUL) or is not an IP
 * address / DNS name is refused before anything is written.
 */
import { Data } from "effect"
import { addressProblem } from "./addressSyntax.ts"

export interface VolumeAddress {
  readonly address: string
  readonly addressType: "IP" | "Hostname"
  readonly ports: Readonly<Record<string, number>>
}

export type VolumeEntry =
  | { readonly type: "directory"; readonly path: string }
  | { readonly type: "file"; readonly path: string; readonly contents: string }
  | { readonly type: "symlink"; readonly path: string; readonly target: string }

export class UnsafeVolumeEntry extends Data.TaggedError("UnsafeVolumeEntry")<{
  /** What was refused: "address" or "port name" or "port number". */
  readonly field: string
  readonly value: string
  readonly problem: string
}> {
  override get message(): string {
    return `refusing to write ${this.field} ${JSON.stringify(this.value)} into the volume: it ${this.problem}`
  }
}

export const ADDRESSES_DIR = "addresses"
export const DEFAULT_ADDRESS_LINK = "default-address"

// Port names come from Service/container port names (IANA service names or DNS labels).
const PORT_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/

const portNameProblem = (name: string): string | undefined =>
  PORT_NAME.test(name) ? undefined : "is not a lowercase DNS label (a-z, 0-9, '-', at most 63 characters)"

const portNumberProblem = (port: number): string | undefined =>
  Number.isInteger(port) && port >= 1 && port <= 65535 ? undefined : "is not a port number between 1 and 65535"

/**
 * The entries to create, parents before children, in a stable order. Duplicate addresses
 * collapse to one directory (the first occurrence wins). No addresses → only `addresses/`.
 */
export const planVolumeTree = (
  addresses: ReadonlyArray<VolumeAddress>
): { readonly entries: ReadonlyArray<VolumeEntry> } | UnsafeVolumeEntry => {
  const entries: VolumeEntry[] = [{ type: "directory", path: ADDRESSES_DIR }]
  const seen = new Set<string>()
  for (const { address, ports } of addresses) {
    const problem = addressProblem(address)
    if (problem !== undefined) return new UnsafeVolumeEntry({ field: "address", value: address, problem })
    if (seen.has(address)) continue
    seen.add(address)
    const dir = `${ADDRESSES_DIR}/${address}`
    entries.push({ type: "directory", path: dir })
    entries.push({ type: "file", path: `${dir}/address`, contents: address })
    entries.push({ type: "directory", path: `${dir}/ports` })
    for (const name of Object.keys(ports).sort()) {
      const port = ports[name]!
      const nameProblem = portNameProblem(name)
      if (nameProblem !== undefined) return new UnsafeVolumeEntry({ field: "port name", value: name, problem: nameProblem })
      const numberProblem = portNumberProblem(port)
      if (numberProblem !== undefined) {
        return new UnsafeVolumeEntry({ field: "port number", value: String(port), problem: numberProblem })
      }
      entries.push({ type: "file", path: `${dir}/ports/${name}`, contents: String(port) })
    }
  }
  const first = addresses[0]
  if (first !== undefined) {
    entries.push({ type: "symlink", path: DEFAULT_ADDRESS_LINK, target: `${ADDRESSES_DIR}/${first.address}` })
  }
  return { entries }
}
