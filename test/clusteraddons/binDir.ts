// Where test/clusteraddons/build.sh puts CoreDNS, MetalLB's controller and speaker, and
// MetalLB's Helm chart (copied from the pinned module). The cache layout and the hash must
// match build.sh exactly.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot } from "../envtest/binDir.ts";

const here = dirname(fileURLToPath(import.meta.url));

/** Keep in sync with HASHED_FILES in build.sh. */
const HASHED_FILES = ["build.sh", "coredns/go.mod", "coredns/go.sum", "metallb/go.mod", "metallb/go.sum"] as const;

export type ClusterAddonBinary = "coredns" | "metallb-controller" | "metallb-speaker";

/** sha256 of the `sha256sum` listing of HASHED_FILES, 16 hex chars (as build.sh computes it). */
export function clusterAddonsBuildHash(): string {
  const listing = HASHED_FILES.map((f) => `${createHash("sha256").update(readFileSync(join(here, f))).digest("hex")}  ${f}\n`).join("");
  return createHash("sha256").update(listing).digest("hex").slice(0, 16);
}

const buildDir = (): string => join(cacheRoot(), "clusteraddons", clusterAddonsBuildHash());

const mustExist = (path: string): string => {
  if (!existsSync(path)) throw new Error(`${path} is missing: run bash test/clusteraddons/build.sh (npm run test:e2e does)`);
  return path;
};

export const clusterAddonBinary = (name: ClusterAddonBinary): string => mustExist(join(buildDir(), "bin", name));

/** MetalLB's own Helm chart at the pinned version (charts/metallb of the module). */
export const metallbChartDir = (): string => mustExist(join(buildDir(), "metallb-chart"));

/** The pinned versions, as build.sh recorded them (`coredns=v1.15.0`, `metallb=v0.16.2`). */
export function clusterAddonVersions(): { readonly coredns: string; readonly metallb: string } {
  const info = readFileSync(mustExist(join(buildDir(), "build-info.txt")), "utf8");
  const field = (key: string): string => {
    const m = new RegExp(`^${key}=(.+)$`, "mu").exec(info);
    if (m === null) throw new Error(`build-info.txt of test/clusteraddons has no ${key}`);
    return m[1]!;
  };
  return { coredns: field("coredns"), metallb: field("metallb") };
}
