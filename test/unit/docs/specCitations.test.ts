// The pages and the code cite the product specification as "spec §N": docs/spec.md, whose
// numbered sections are what they point at. Every citation names a section that exists,
// every link to docs/spec.md lands on a heading, and no citation names a spec outside the
// repository ("SPEC §N", a file users cannot read).
import { test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"

const repoRoot = join(import.meta.dirname, "..", "..", "..")
const SKIP = new Set(["node_modules", ".git", "dist", "fixtures"])
const TEXT = /\.(ts|md|yaml|tpl|txt|json)$/

const files = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : TEXT.test(name) ? [path] : []
  })

const spec = readFileSync(join(repoRoot, "docs", "spec.md"), "utf8")
const sections = new Set([...spec.matchAll(/^## (\d+)\. /gm)].map((m) => m[1]))
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const anchors = new Set([...spec.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^\p{L}\p{N} -]/gu, "").replaceAll(" ", "-")))

const corpus = files(repoRoot).filter((f) => !f.endsWith(join("docs", "spec.md")) && !f.endsWith("specCitations.test.ts"))

test("docs/spec.md has the seven numbered sections the citations use", () => {
  assert.deepEqual([...sections], ["1", "2", "3", "4", "5", "6", "7"])
})

test("every 'spec §N' citation names a section of docs/spec.md", () => {
  let citations = 0
  for (const file of corpus) {
    const text = readFileSync(file, "utf8")
    for (const m of text.matchAll(/\bspec §(\d+)(?:[–-]§(\d+))?/gi)) {
      citations++
      for (const n of [m[1], m[2]].filter((x) => x !== undefined)) assert.ok(sections.has(n), `${relative(repoRoot, file)}: ${m[0]} has no section in docs/spec.md`)
    }
  }
  assert.ok(citations > 20, `${citations} citations`)
})

test("no citation of a spec outside the repository", () => {
  for (const file of corpus) {
    const text = readFileSync(file, "utf8")
    assert.doesNotMatch(text, /SPEC §|\bthe SPEC\b/, relative(repoRoot, file))
  }
})

test("every link to docs/spec.md lands on one of its headings", () => {
  let links = 0
  for (const file of corpus.filter((f) => f.endsWith(".md"))) {
    for (const m of readFileSync(file, "utf8").matchAll(/\]\((?:\.\.\/docs\/|docs\/)?spec\.md#([^)]+)\)/g)) {
      links++
      assert.ok(anchors.has(m[1]!), `${relative(repoRoot, file)}: spec.md#${m[1]} is not a heading of docs/spec.md`)
    }
  }
  assert.ok(links > 5, `${links} links`)
})
