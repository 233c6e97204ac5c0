/**
 * "The next build" for the upgrade end-to-end test: the operator bundled exactly as
 * `npm run bundle` does, except that `k8s/crds.ts` is test/upgrade/nextCrds.ts (this
 * build's CRDs plus one optional field), packed as the operator image under a second tag.
 * So a `helm upgrade` to it changes the image and a CRD the way a real release would,
 * without any switch in the product. Cached like the other images (keyed by its inputs).
 */
import { build, type Plugin } from "esbuild"
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { imagesCacheDir, operatorImage, operatorRef, REPO_ROOT } from "../images/build.ts"
import type { ImageArchive } from "../images/build.ts"

export const NEXT_TAG_SUFFIX = "-next"
export const nextOperatorRef = (): string => `${operatorRef()}${NEXT_TAG_SUFFIX}`

const CRDS_MODULE = resolve(REPO_ROOT, "k8s", "crds.ts")
const NEXT_CRDS_MODULE = resolve(REPO_ROOT, "test", "upgrade", "nextCrds.ts")

/** Every import of k8s/crds.ts — except nextCrds.ts's own — resolves to nextCrds.ts. */
const nextCrds: Plugin = {
  name: "next-crds",
  setup(on) {
    // esbuild takes Go regular expressions: no flags.
    on.onResolve({ filter: /crds\.ts$/ }, (args) => {
      if (args.importer === NEXT_CRDS_MODULE) return undefined
      return resolve(args.resolveDir, args.path) === CRDS_MODULE ? { path: NEXT_CRDS_MODULE } : undefined
    })
  }
}

/** The options of package.json's `bundle` script (kept equal by test/unit/upgrade/nextBuild.test.ts). */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  format: "esm",
  splitting: true,
  sourcemap: true,
  sourcesContent: false,
  target: "node24",
  legalComments: "none",
  logLevel: "warning",
  minifyWhitespace: true,
  minifySyntax: true,
  external: ["@grpc/proto-loader"],
  alias: { undici: "./adapters/http/undiciNotBundled.ts" },
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" }
} as const

export async function buildNextOperatorImage(): Promise<ImageArchive> {
  const root = join(imagesCacheDir(), "next-build")
  rmSync(root, { recursive: true, force: true })
  mkdirSync(join(root, "dist"), { recursive: true })
  copyFileSync(join(REPO_ROOT, "package.json"), join(root, "package.json"))
  await build({
    ...BUNDLE_OPTIONS,
    external: [...BUNDLE_OPTIONS.external],
    alias: { ...BUNDLE_OPTIONS.alias },
    absWorkingDir: REPO_ROOT,
    entryPoints: [join(REPO_ROOT, "main.ts")],
    outdir: join(root, "dist", "bin"),
    plugins: [nextCrds]
  })
  const bundled = readFileSync(join(root, "dist", "bin", "main.js"), "utf8")
  if (bundled.length === 0) throw new Error("the next build's bundle is empty")
  return operatorImage(nextOperatorRef(), root)
}
