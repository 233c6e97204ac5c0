// Where test/realnodes/build.sh puts the kubelet and kube-proxy. The cache layout and the
// hash must match build.sh exactly.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot } from "../envtest/binDir.ts";

const here = dirname(fileURLToPath(import.meta.url));

/** Keep in sync with HASHED_FILES in build.sh. */
const HASHED_FILES = ["build.sh", "go.mod", "go.sum"] as const;

export type RealNodesBinary = "kubelet" | "kube-proxy";

/** sha256 of the `sha256sum` listing of HASHED_FILES, 16 hex chars (as build.sh computes it). */
export function realNodesBuildHash(): string {
  const listing = HASHED_FILES.map((f) => `${createHash("sha256").update(readFileSync(join(here, f))).digest("hex")}  ${f}\n`).join("");
  return createHash("sha256").update(listing).digest("hex").slice(0, 16);
}

export const realNodesCacheDir = (): string => join(cacheRoot(), "realnodes");

export function realNodesBinary(name: RealNodesBinary): string {
  const path = join(realNodesCacheDir(), realNodesBuildHash(), "bin", name);
  if (!existsSync(path)) throw new Error(`${path} is missing: run bash test/realnodes/build.sh (npm run test:e2e does)`);
  return path;
}
