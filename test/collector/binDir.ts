// Where test/collector/build.sh puts Jaeger. The cache layout and the hash must match build.sh.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot } from "../envtest/binDir.ts";

const here = dirname(fileURLToPath(import.meta.url));

/** Keep in sync with HASHED_FILES in build.sh. */
const HASHED_FILES = ["build.sh", "go.mod", "go.sum"] as const;

export function collectorBuildHash(): string {
  const listing = HASHED_FILES.map((f) => `${createHash("sha256").update(readFileSync(join(here, f))).digest("hex")}  ${f}\n`).join("");
  return createHash("sha256").update(listing).digest("hex").slice(0, 16);
}

export function jaegerBinary(): string {
  const path = join(cacheRoot(), "collector", collectorBuildHash(), "bin", "jaeger");
  if (!existsSync(path)) throw new Error(`${path} is missing: run bash test/collector/build.sh (npm run test:e2e does)`);
  return path;
}
