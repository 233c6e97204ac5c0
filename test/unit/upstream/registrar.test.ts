import { test } from "node:test"
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { credentials, loadPackageDefinition } from "@grpc/grpc-js"
import type { GrpcObject, ServiceClientConstructor } from "@grpc/grpc-js"
import { loadSync } from "@grpc/proto-loader"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { registrarCommand } from "../../upstream/registrar.ts"
import { withTempDir } from "../withTempDir.ts"

// The kubelet's side of the plugin-registration API, from the .proto parsed at run time.
const Registration = ((loadPackageDefinition(loadSync(join(import.meta.dirname, "../../../csi/registration.proto"), { keepCase: true, defaults: true }))[
  "pluginregistration"
] as GrpcObject)["Registration"]) as ServiceClientConstructor

const call = <T>(client: InstanceType<ServiceClientConstructor>, method: string, request: object): Promise<T> =>
  new Promise((resolve, reject) => {
    (client[method] as (r: object, cb: (e: Error | null, v: T) => void) => void).call(client, request, (e, v) => (e ? reject(e) : resolve(v)))
  })

test("the registrar process names the given CSI socket to the kubelet, reports its verdict and removes its socket on SIGTERM", () =>
  withTempDir("registrar-", async (dir) => {
    const { command, args } = registrarCommand({ registrationDir: dir, csiEndpoint: "/var/lib/kubelet/plugins/example.csi/csi.sock", driverName: "example.csi" })
    const child = spawn(command, [...args], { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => { out += chunk })
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    try {
      const socket = join(dir, "example.csi-reg.sock")
      for (let i = 0; i < 300 && !out.includes("serving registration"); i++) await new Promise((r) => setTimeout(r, 100))
      assert.ok(existsSync(socket), `no socket at ${socket}; output: ${out}`)
      const client = new Registration(`unix://${socket}`, credentials.createInsecure())
      try {
        assert.deepEqual(await call(client, "GetInfo", {}), {
          type: "CSIPlugin",
          name: "example.csi",
          endpoint: "/var/lib/kubelet/plugins/example.csi/csi.sock",
          supported_versions: ["1.0.0"]
        })
        await call(client, "NotifyRegistrationStatus", { plugin_registered: true })
        for (let i = 0; i < 50 && !out.includes("registered\n"); i++) await new Promise((r) => setTimeout(r, 100))
        assert.match(out, /^registered$/m)
      } finally {
        client.close()
      }
      child.kill("SIGTERM")
      const code = await exited
      // Deno's child_process reports a child it sent a signal to as ended by that signal
      // (code null), whatever the child exits with; Node reports the child's own exit code.
      if (!("Deno" in globalThis)) assert.equal(code, 0)
      assert.equal(existsSync(socket), false)
    } finally {
      child.kill("SIGKILL")
    }
  }))

test("the registrar without its settings says what it needs", async () => {
  const { command, args } = registrarCommand({ registrationDir: "/x", csiEndpoint: "/y", driverName: "d" })
  const child = spawn(command, [...args.slice(0, 3)], { stdio: ["ignore", "ignore", "pipe"] })
  let err = ""
  child.stderr.setEncoding("utf8").on("data", (c: string) => { err += c })
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
  assert.equal(code, 2)
  assert.match(err, /usage: registrar\.ts --registration-dir/)
})
