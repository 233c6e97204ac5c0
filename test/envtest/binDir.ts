// Where the upstream binaries built by test/envtest/build.sh live.
// The cache layout and the hash must match build.sh exactly.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The directory holding build.sh, go.mod and go.sum. */
export const envtestSourceDir: string = dirname(fileURLToPath(import.meta.url));

/** Keep in sync with HASHED_FILES in build.sh. */
const HASHED_FILES = [
  "build.sh",
  "go.mod",
  "go.sum",
  "tools/csi-sanity/go.mod",
  "tools/csi-sanity/go.sum",
  "tools/helm/go.mod",
  "tools/helm/go.sum",
] as const;

export const BINARIES = [
  "etcd",
  "kube-apiserver",
  "kube-controller-manager",
  "kube-scheduler",
  "kubectl",
  "csi-provisioner",
  "csi-sanity",
  "helm",
] as const;
export type Binary = (typeof BINARIES)[number];

/** `${LISTENER_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/listener-operator}` */
export function cacheRoot(): string {
  const explicit = process.env["LISTENER_OPERATOR_CACHE"];
  if (explicit !== undefined && explicit !== "") return resolve(explicit);
  const xdg = process.env["XDG_CACHE_HOME"];
  const base = xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache");
  return resolve(base, "listener-operator");
}

/** `<cacheRoot>/envtest`: holds `<hash>/bin`, the `current` pointer and the process registry. */
export function envtestCacheDir(): string {
  return join(cacheRoot(), "envtest");
}

/** Same value as build.sh: sha256 of the `sha256sum` listing of HASHED_FILES, 16 hex chars. */
export function buildHash(): string {
  const listing = HASHED_FILES.map((f) => {
    const digest = createHash("sha256").update(readFileSync(join(envtestSourceDir, f))).digest("hex");
    return `${digest}  ${f}\n`;
  }).join("");
  return createHash("sha256").update(listing).digest("hex").slice(0, 16);
}

function complete(dir: string): boolean {
  return BINARIES.every((b) => existsSync(join(dir, b)));
}

/**
 * The bin dir with all binaries, without building:
 * 1. `ENVTEST_BIN_DIR` if set;
 * 2. `<cache>/envtest/<hash of the current sources>/bin` if complete;
 * 3. the dir named in `<cache>/envtest/current` (last successful build.sh run) if complete.
 * Throws with a hint to run build.sh otherwise.
 */
export function binDir(): string {
  const override = process.env["ENVTEST_BIN_DIR"];
  if (override !== undefined && override !== "") {
    const dir = resolve(override);
    if (!complete(dir)) {
      const missing = BINARIES.filter((b) => !existsSync(join(dir, b)));
      throw new Error(`ENVTEST_BIN_DIR=${dir} lacks: ${missing.join(", ")}`);
    }
    return dir;
  }
  const byHash = join(envtestCacheDir(), buildHash(), "bin");
  if (complete(byHash)) return byHash;
  const pointer = join(envtestCacheDir(), "current");
  if (existsSync(pointer)) {
    const dir = readFileSync(pointer, "utf8").trim();
    if (dir !== "" && complete(dir)) return dir;
  }
  throw new Error(
    `envtest binaries not found (looked in ${byHash} and ${pointer}); run: bash test/envtest/build.sh`,
  );
}

/** Absolute path of one binary. */
export function binary(name: Binary, dir: string = binDir()): string {
  return join(dir, name);
}
