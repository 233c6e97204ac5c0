import { test } from "node:test"
import assert from "node:assert/strict"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { lightConnection } from "../../../../adapters/http/kubeconfigLight.ts"
import { withTempDir } from "../../withTempDir.ts"

const b64 = (s: string) => Buffer.from(s).toString("base64")

const kubeconfig = (user: string, cluster = `server: https://10.1.2.3:6443\n    certificate-authority-data: ${b64("CA PEM")}`) => `apiVersion: v1
kind: Config
current-context: ctx
contexts:
- name: ctx
  context: {cluster: c, user: u}
clusters:
- name: c
  cluster:
    ${cluster}
users:
- name: u
  user:
    ${user}
`

const withDir = (body: (dir: string) => Promise<void>) => withTempDir("kubeconfig-light-", body)

test("a kubeconfig file with certificate data: server, CA, client certificate, no Authorization header", () =>
  withDir(async (dir) => {
    const path = join(dir, "config")
    writeFileSync(path, kubeconfig(`client-certificate-data: ${b64("CERT")}\n    client-key-data: ${b64("KEY")}`))
    const connection = await Effect.runPromise(lightConnection({ file: path }))
    assert.ok(connection !== undefined)
    assert.equal(connection.server.href, "https://10.1.2.3:6443/")
    assert.equal(String(connection.tls.ca), "CA PEM")
    assert.equal(String(connection.tls.cert), "CERT")
    assert.equal(String(connection.tls.key), "KEY")
    assert.deepEqual(await connection.authHeaders(), {})
  }))

test("relative certificate and token files resolve against the kubeconfig's directory; tokens become Bearer headers", () =>
  withDir(async (dir) => {
    writeFileSync(join(dir, "ca.crt"), "CA FILE")
    writeFileSync(join(dir, "token"), "file-token\n")
    const path = join(dir, "config")
    writeFileSync(path, kubeconfig("tokenFile: token", "server: https://api.example:443\n    certificate-authority: ca.crt\n    tls-server-name: kubernetes"))
    const connection = await Effect.runPromise(lightConnection({ file: path }))
    assert.equal(String(connection?.tls.ca), "CA FILE")
    assert.equal(connection?.tls.servername, "kubernetes")
    assert.deepEqual(await connection?.authHeaders(), { Authorization: "Bearer file-token" })
    writeFileSync(path, kubeconfig("token: inline-token", "server: https://api.example:443\n    insecure-skip-tls-verify: true"))
    const inline = await Effect.runPromise(lightConnection({ file: path }))
    assert.equal(inline?.tls.rejectUnauthorized, false)
    assert.deepEqual(await inline?.authHeaders(), { Authorization: "Bearer inline-token" })
  }))

test("exec and auth-provider users, impersonation and merged $KUBECONFIG lists are left to client-node", () =>
  withDir(async (dir) => {
    const path = join(dir, "config")
    for (const user of ["exec: {apiVersion: client.authentication.k8s.io/v1, command: get-token}", "auth-provider: {name: oidc}", "as: someone"]) {
      writeFileSync(path, kubeconfig(user))
      assert.equal(await Effect.runPromise(lightConnection({ file: path })), undefined, user)
    }
    const saved = process.env["KUBECONFIG"]
    try {
      process.env["KUBECONFIG"] = `${path}:${path}`
      assert.equal(await Effect.runPromise(lightConnection("default")), undefined)
      writeFileSync(path, kubeconfig("token: t"))
      process.env["KUBECONFIG"] = path
      assert.equal((await Effect.runPromise(lightConnection("default")))?.server.host, "10.1.2.3:6443")
    } finally {
      if (saved === undefined) delete process.env["KUBECONFIG"]
      else process.env["KUBECONFIG"] = saved
    }
  }))

test("an unreadable or inconsistent kubeconfig fails naming the file and the cause", () =>
  withDir(async (dir) => {
    const missing = await Effect.runPromise(Effect.flip(lightConnection({ file: join(dir, "nope") })))
    assert.match(missing.message, /^cannot load kubeconfig \(.*nope\): ENOENT/u)
    const path = join(dir, "config")
    writeFileSync(path, "apiVersion: v1\nkind: Config\ncurrent-context: gone\n")
    const noContext = await Effect.runPromise(Effect.flip(lightConnection({ file: path })))
    assert.match(noContext.message, /current-context gone is not defined/u)
  }))

test("a JSON kubeconfig (as kubectl accepts) is read like a YAML one", () =>
  withDir(async (dir) => {
    const path = join(dir, "config.json")
    writeFileSync(path, JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      "current-context": "ctx",
      contexts: [{ name: "ctx", context: { cluster: "c", user: "u" } }],
      clusters: [{ name: "c", cluster: { server: "https://10.1.2.3:6443", "certificate-authority-data": b64("CA PEM") } }],
      users: [{ name: "u", user: { token: "secret" } }]
    }))
    const connection = await Effect.runPromise(lightConnection({ file: path }))
    assert.ok(connection !== undefined)
    assert.equal(connection.server.href, "https://10.1.2.3:6443/")
    assert.equal(String(connection.tls.ca), "CA PEM")
    assert.deepEqual(await connection.authHeaders(), { Authorization: "Bearer secret" })
  }))
