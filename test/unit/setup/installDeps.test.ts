// npm test's first step (test/install-deps.sh): anyone but root is stopped at once with one
// line naming the command to run, and a missing Go is named. (As root it installs what is
// missing: that path is what every `npm test` run goes through.)
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { test } from "node:test"

const script = join(import.meta.dirname, "..", "..", "install-deps.sh")
const NOBODY = 65534

/**
 * Run the script as nobody (when we are root; otherwise as ourselves, who are not root
 * either). It is read here and given on stdin: nobody may not be able to enter the checkout
 * (a clone in a `mktemp -d` directory is mode 0700).
 */
const runUnprivileged = (path: string) =>
  spawnSync("bash", ["-s"], {
    input: readFileSync(script, "utf8"),
    encoding: "utf8",
    env: { PATH: path },
    ...(process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {}),
    cwd: "/"
  })

test("not root: stops at once, with one line naming the command to run", () => {
  const run = runUnprivileged(process.env["PATH"] ?? "/usr/bin:/bin")
  assert.equal(run.status, 1)
  assert.equal(run.stdout, "")
  const lines = run.stderr.trimEnd().split("\n")
  assert.equal(lines.length, 1, run.stderr)
  assert.match(lines[0]!, /as root, e\.g\. sudo env "PATH=\$PATH" npm test/u)
})

test("not root and no Go on PATH: the one line says to install Go", () => {
  const run = runUnprivileged("/usr/bin:/bin")
  assert.equal(run.status, 1)
  assert.equal(run.stderr.trimEnd().split("\n").length, 1, run.stderr)
  assert.match(run.stderr, /once Go is installed \(https:\/\/go\.dev\/dl\/\)/u)
})
