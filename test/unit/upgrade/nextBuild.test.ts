// The upgrade test's "next build" must be bundled as the product is: its esbuild options
// are those of package.json's `bundle` script, flag by flag.
import { test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { BUNDLE_OPTIONS } from "../../upgrade/nextBuild.ts"

const script = (JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "..", "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts["bundle"]!

const camel = (flag: string) => flag.replace(/-([a-z])/gu, (_, c: string) => c.toUpperCase())

/** Shell words of the script (double quotes group, as npm's shell reads them). */
const words = (line: string): string[] => [...line.matchAll(/"([^"]*)"|(\S+)/gu)].map((m) => m[1] ?? m[2]!)

test("the next build's esbuild options are the bundle script's", () => {
  const flags = new Map<string, unknown>()
  for (const word of words(script).filter((w) => w.startsWith("--"))) {
    const [name, ...rest] = word.slice(2).split("=")
    const value = rest.length === 0 ? undefined : rest.join("=")
    if (name === "outdir" || name === "metafile") continue
    if (name!.startsWith("external:")) {
      flags.set("external", [...((flags.get("external") as string[] | undefined) ?? []), name!.slice("external:".length)])
      continue
    }
    if (name!.startsWith("alias:")) {
      flags.set("alias", { ...((flags.get("alias") as Record<string, string> | undefined) ?? {}), [name!.slice("alias:".length)]: value })
      continue
    }
    flags.set(camel(name!.replace(/:js$/u, "")), value === undefined || value === "true" ? true : value === "false" ? false : value)
  }
  const expected = { ...BUNDLE_OPTIONS, banner: BUNDLE_OPTIONS.banner.js }
  assert.deepEqual(Object.fromEntries([...flags].sort()), Object.fromEntries(Object.entries(expected).sort()))
})
