/**
 * What a reader of a listener volume sees at a target (nodePluginCrash.test.ts and its
 * reader process, treeReader.ts): nothing yet, a complete tree, or a broken one (and why).
 *
 * The tree (effects/node/writeVolumeTree.ts): `default-address` and `addresses` at the top are
 * links into `..data`, which points at the live version `..v<N>`; a new version is swapped
 * in by renaming `..data`. A container resolves each path through `..data` once, so
 * "complete" means: every path a container reads lands in one whole version, and the
 * version behind `..data` is whole — one address directory, the one `default-address`
 * points at, with its address and port files — showing one of the `allowed` addresses
 * (while a publish swaps the address, the old one or the new one, never a mix).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

export interface WatchedTarget {
  readonly path: string;
  /** Addresses a complete tree may show now: the new one, and while it is swapped in, the old one. */
  readonly allowed: readonly string[];
  /** The `http` port every version carries. */
  readonly port: string;
}

export type Look = { readonly kind: "absent" } | { readonly kind: "complete"; readonly address: string } | { readonly kind: "broken"; readonly why: string };

const TOP_LEVEL = ["addresses", "default-address"];

export const inspectTree = ({ path, allowed, port }: WatchedTarget): Look => {
  const broken = (why: string): Look => ({ kind: "broken", why });
  try {
    if (!existsSync(path)) return { kind: "absent" };
    const visible = readdirSync(path).filter((name) => !name.startsWith("..")).sort();
    if (visible.length === 0) return { kind: "absent" };
    if (visible.join(",") !== TOP_LEVEL.join(",")) return broken(`top level is [${visible.join(",")}]`);
    // As a container reads it: each path on its own.
    const address = readFileSync(join(path, "default-address", "address"), "utf8");
    if (!allowed.includes(address)) return broken(`default-address/address is ${JSON.stringify(address)}, not one of ${allowed.join(" ")}`);
    const readPort = readFileSync(join(path, "default-address", "ports", "http"), "utf8");
    if (readPort !== port) return broken(`default-address/ports/http is ${JSON.stringify(readPort)}`);
    const listed = readdirSync(join(path, "addresses"));
    if (listed.length !== 1 || !allowed.includes(listed[0]!)) return broken(`addresses/ holds [${listed.join(",")}]`);
    // The live version, whole.
    const version = readlinkSync(join(path, "..data"));
    if (!/^\.\.v[0-9]+$/u.test(version)) return broken(`..data points at ${JSON.stringify(version)}`);
    const live = join(path, version);
    const liveAddress = readFileSync(join(live, "default-address", "address"), "utf8");
    if (!allowed.includes(liveAddress)) return broken(`${version}/default-address/address is ${JSON.stringify(liveAddress)}`);
    if (readlinkSync(join(live, "default-address")) !== `addresses/${liveAddress}`) return broken(`${version}/default-address points elsewhere`);
    const liveListed = readdirSync(join(live, "addresses"));
    if (liveListed.length !== 1 || liveListed[0] !== liveAddress) return broken(`${version}/addresses holds [${liveListed.join(",")}]`);
    if (readFileSync(join(live, "addresses", liveAddress, "address"), "utf8") !== liveAddress) return broken(`${version}/addresses/<a>/address differs`);
    if (readFileSync(join(live, "addresses", liveAddress, "ports", "http"), "utf8") !== port) return broken(`${version}/addresses/<a>/ports/http differs`);
    return { kind: "complete", address: liveAddress };
  } catch (error) {
    return broken(`unreadable: ${(error as Error).message}`);
  }
};
