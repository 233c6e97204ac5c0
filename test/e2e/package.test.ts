// The library as a custom distribution gets it: `npm pack` of this repository (after
// `npm run build`, which npm run test:e2e does first), installed from the tarball into an
// empty project, imported from JavaScript and from TypeScript, on Node 24 and on Deno 2.
import assert from "node:assert/strict"
import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { after, before, describe, test } from "node:test"

const repoRoot = join(import.meta.dirname, "..", "..")
const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name)

const JS = `import { Constants, Roles, Adapters, Programs } from "listener-operator"
console.log([Constants.CSI_DRIVER_NAME, typeof Roles.nodeRoleLayer, typeof Adapters.KubeApiMemory.layer, typeof Programs.publishVolume].join(" "))
`
const TS = `import { Constants, Roles } from "listener-operator"
import type { Layer } from "effect"
const driver: string = Constants.CSI_DRIVER_NAME
const role: Layer.Layer<never, unknown, unknown> = Roles.nodeRoleLayer({ csiEndpoint: "/tmp/unused.sock", nodeName: "n", vendorVersion: "1" })
console.log([driver, typeof role].join(" "))
`

describe("the packed library, installed from its tarball", { timeout: 300_000 }, () => {
  let project: string

  before(() => {
    const work = mkdtempSync(join(tmpdir(), "listener-operator-pack-"))
    const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: repoRoot, encoding: "utf8" }).trim().split("\n").at(-1)!
    project = join(work, "consumer")
    mkdirSync(project)
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
    execFileSync("npm", ["install", "--no-audit", "--no-fund", join(work, tarball)], { cwd: project, stdio: ["ignore", "ignore", "inherit"] })
    writeFileSync(join(project, "index.mjs"), JS)
    writeFileSync(join(project, "index.ts"), TS)
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({
      compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", noEmit: true, skipLibCheck: true, typeRoots: [join(repoRoot, "node_modules", "@types")] },
      files: ["index.ts"]
    }))
  })
  after(() => rmSync(join(project, ".."), { recursive: true, force: true }))

  const run = (command: string, args: ReadonlyArray<string>) => {
    const result = spawnSync(command, [...args], { cwd: project, encoding: "utf8", timeout: 120_000 })
    assert.equal(result.status, 0, `${command} ${args.join(" ")}: ${result.stderr}`)
    return result.stdout.trim()
  }

  test("JavaScript imports it on Node 24 and on Deno 2", () => {
    const expected = "listeners.stackable.tech function function function"
    assert.equal(run(bin("node"), ["index.mjs"]), expected)
    assert.equal(run(bin("deno"), ["run", "--allow-all", "index.mjs"]), expected)
  })

  test("TypeScript type-checks against its declarations and runs on Node 24 and on Deno 2", () => {
    run(bin("tsc"), ["-p", "tsconfig.json"])
    assert.equal(run(bin("node"), ["index.ts"]), "listeners.stackable.tech object")
    assert.equal(run(bin("deno"), ["run", "--allow-all", "index.ts"]), "listeners.stackable.tech object")
  })
})
