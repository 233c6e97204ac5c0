// The offline images (test/images): reproducible byte for byte, the operator image says
// what the Dockerfile says, and its Node runtime runs with nothing but the libraries the
// recipe copied — as the non-root user the Dockerfile names.
import assert from "node:assert/strict"
import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { after, before, describe, test } from "node:test"
import { readFinalStage } from "../images/dockerfile.ts"
import { buildImages, REPO_ROOT } from "../images/build.ts"
import type { ImageArchive } from "../images/build.ts"

interface OciDescriptor { readonly digest: string }
interface ImageConfigBlob {
  readonly config: { Entrypoint?: string[]; Env?: string[]; User?: string; WorkingDir?: string }
}

const blobPath = (dir: string, digest: string) => join(dir, "blobs", "sha256", digest.replace(/^sha256:/u, ""))

/** Unpack an OCI archive and its single layer; returns the config and the root filesystem. */
const unpack = (archive: string, into: string): { config: ImageConfigBlob; rootfs: string } => {
  const layout = join(into, "layout")
  const rootfs = join(into, "rootfs")
  mkdirSync(layout, { recursive: true })
  mkdirSync(rootfs, { recursive: true })
  execFileSync("tar", ["-xf", archive, "-C", layout])
  const index = JSON.parse(readFileSync(join(layout, "index.json"), "utf8")) as { manifests: OciDescriptor[] }
  const manifest = JSON.parse(readFileSync(blobPath(layout, index.manifests[0]!.digest), "utf8")) as { config: OciDescriptor; layers: OciDescriptor[] }
  assert.equal(manifest.layers.length, 1)
  execFileSync("tar", ["-xf", blobPath(layout, manifest.layers[0]!.digest), "-C", rootfs])
  return { config: JSON.parse(readFileSync(blobPath(layout, manifest.config.digest), "utf8")) as ImageConfigBlob, rootfs }
}

describe("offline images", { timeout: 600_000 }, () => {
  let work: string
  let operator: ImageArchive

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "images-test-"))
    operator = (await buildImages({ only: ["operator"] }))[0]!
  })
  after(() => rmSync(work, { recursive: true, force: true }))

  test("building an image again, in an empty cache, gives the same bytes", async () => {
    const saved = process.env["LISTENER_OPERATOR_CACHE"]
    const digests: string[][] = []
    const files: Buffer[][] = []
    try {
      for (const run of ["first", "second"]) {
        process.env["LISTENER_OPERATOR_CACHE"] = join(work, `cache-${run}`)
        const images = await buildImages({ only: ["pause", "busybox"] })
        digests.push(images.map((i) => i.digest))
        files.push(images.map((i) => readFileSync(i.path)))
      }
    } finally {
      if (saved === undefined) delete process.env["LISTENER_OPERATOR_CACHE"]
      else process.env["LISTENER_OPERATOR_CACHE"] = saved
    }
    assert.deepEqual(digests[0], digests[1])
    files[0]!.forEach((bytes, i) => assert.ok(bytes.equals(files[1]![i]!), `archive ${i} differs between two builds`))
  })

  test("the operator image has the Dockerfile's entrypoint, user, workdir, environment and files", () => {
    const stage = readFinalStage(join(REPO_ROOT, "Dockerfile"))
    const { config, rootfs } = unpack(operator.path, join(work, "operator"))
    assert.deepEqual(config.config.Entrypoint, stage.entrypoint)
    assert.equal(config.config.User, stage.user)
    assert.equal(config.config.WorkingDir, stage.workdir)
    for (const env of stage.env) assert.ok(config.config.Env?.includes(env), `Env has ${env}`)
    assert.ok(existsSync(join(rootfs, stage.entrypoint[0]!)), `the entrypoint binary ${stage.entrypoint[0]} is in the image`)
    for (const copy of stage.copies) assert.ok(existsSync(join(rootfs, copy.destination)), `COPY (Dockerfile:${copy.line}) → ${copy.destination} is in the image`)
    const script = stage.entrypoint.find((arg) => arg.endsWith(".js"))
    assert.ok(script !== undefined && existsSync(join(rootfs, script)), `the entrypoint script ${script} is in the image`)
    // Every chunk of the bundle (each role's, loaded on demand) is next to the entrypoint.
    const meta = JSON.parse(readFileSync(join(REPO_ROOT, "dist", "meta.json"), "utf8")) as { outputs: Record<string, unknown> }
    const chunks = Object.keys(meta.outputs).filter((output) => output.endsWith(".js")).map((output) => basename(output))
    assert.ok(chunks.length > 10, "sanity: the bundle has its chunks")
    for (const chunk of chunks) assert.ok(existsSync(join(rootfs, dirname(script), chunk)), `${chunk} next to ${script}`)
  })

  test("the operator image's Node runs with only the copied libraries, as its non-root user", () => {
    const { config, rootfs } = unpack(operator.path, join(work, "operator-run"))
    const userspec = config.config.User!
    const node = config.config.Entrypoint!
    const version = spawnSync("chroot", [`--userspec=${userspec}`, rootfs, node[0]!, "--version"], { encoding: "utf8" })
    assert.equal(version.status, 0, version.stderr)
    assert.match(version.stdout.trim(), /^v24\./u)
    const help = spawnSync("chroot", [`--userspec=${userspec}`, rootfs, ...node, "crd"], { encoding: "utf8", cwd: "/" })
    assert.equal(help.status, 0, help.stderr)
    assert.match(help.stdout, /kind: CustomResourceDefinition/u)
  })

  // The image's node binary is stripped (docs/images.md): what the roles use of it still works.
  test("the operator image's stripped Node serves and calls TLS + HTTP/2, hashes, and formats with ICU", () => {
    const { config, rootfs } = unpack(operator.path, join(work, "operator-tls"))
    const node = config.config.Entrypoint![0]!
    assert.ok(statSync(join(rootfs, node)).size < 115_000_000, "the node binary is the stripped one")
    // The image's one layer is its uncompressed root filesystem (docs/images.md: ≤ 120 MB, decimal).
    const layer = execFileSync("tar", ["-tvf", operator.path]).toString().split("\n").map((line) => Number(line.split(/\s+/u)[2] ?? 0))
    assert.ok(Math.max(...layer) <= 120_000_000, `the operator layer is ${Math.max(...layer)} bytes, over 120 MB`)
    const file = (name: string) => join(rootfs, "tmp", name)
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", file("key.pem"), "-out", file("cert.pem")], { stdio: "ignore" })
    chmodSync(file("key.pem"), 0o644) // read by the image's non-root user
    writeFileSync(file("check.mjs"), `
      import { readFileSync } from "node:fs"
      import http2 from "node:http2"
      import { createHash } from "node:crypto"
      const cert = readFileSync("/tmp/cert.pem"), key = readFileSync("/tmp/key.pem")
      const server = http2.createSecureServer({ key, cert }, (req, res) => res.end("h2 " + req.httpVersion))
      server.listen(0, "127.0.0.1", () => {
        const client = http2.connect("https://127.0.0.1:" + server.address().port, { ca: cert })
        const req = client.request({ ":path": "/" })
        let body = ""
        req.on("data", (d) => body += d).on("end", () => {
          console.log(JSON.stringify({ body, alpn: client.alpnProtocol, sha: createHash("sha256").update("x").digest("hex").slice(0, 8), icu: new Intl.NumberFormat("de-DE").format(1234.5) }))
          client.close(); server.close()
        })
      })`)
    const run = spawnSync("chroot", [`--userspec=${config.config.User!}`, rootfs, node, "/tmp/check.mjs"], { encoding: "utf8", timeout: 30_000 })
    assert.equal(run.status, 0, run.stderr)
    assert.deepEqual(JSON.parse(run.stdout), { body: "h2 2.0", alpn: "h2", sha: "2d711642", icu: "1.234,5" })
  })
})
