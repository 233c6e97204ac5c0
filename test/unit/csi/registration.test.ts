import { test } from "node:test"
import assert from "node:assert/strict"
import { Client, credentials, loadPackageDefinition, status } from "@grpc/grpc-js"
import type { GrpcObject, ServiceClientConstructor, ServiceError } from "@grpc/grpc-js"
import { loadSync } from "@grpc/proto-loader"
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Ref, Scope } from "effect"
import { registrationSocketName, serveRegistration } from "../../../csi/registration.ts"
import type { RegistrationState } from "../../../csi/registration.ts"

// A client speaking the kubelet's side of the plugin registration API: grpc-js with the
// .proto parsed at run time, an implementation independent of the server's own.
const REGISTRATION_PROTO = join(import.meta.dirname, "../../../csi/registration.proto")
const LOADER_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true }
const Registration = ((loadPackageDefinition(loadSync(REGISTRATION_PROTO, LOADER_OPTIONS))["pluginregistration"] as GrpcObject)
  ["Registration"]) as ServiceClientConstructor

const call = <T>(client: InstanceType<ServiceClientConstructor>, method: string, request: object): Promise<T> =>
  new Promise((resolve, reject) => {
    (client[method] as (r: object, cb: (e: Error | null, v: T) => void) => void).call(client, request, (e, v) => (e ? reject(e) : resolve(v)))
  })

test("the kubelet's plugin watcher gets our plugin info and its verdict reaches the role", async () => {
  const dir = mkdtempSync(join(tmpdir(), "plugins-registry-"))
  const scope = Effect.runSync(Scope.make())
  const verdicts: Array<{ registered: boolean; error: string }> = []
  try {
    const state = await Effect.runPromise(Scope.provide(scope)(serveRegistration({
      registrationDir: dir,
      kubeletCsiEndpoint: "/var/lib/kubelet/plugins/listeners.stackable.tech/csi.sock",
      onStatus: (verdict) => Effect.sync(() => verdicts.push(verdict))
    })))
    const socket = join(dir, registrationSocketName("listeners.stackable.tech"))
    assert.equal(socket, join(dir, "listeners.stackable.tech-reg.sock"))
    assert.ok(statSync(socket).isSocket())
    assert.equal(statSync(socket).mode & 0o777, 0o600)
    assert.equal(await Effect.runPromise(Ref.get(state)), undefined as RegistrationState)

    const client = new Registration(`unix://${socket}`, credentials.createInsecure())
    try {
      const info = await call<Record<string, unknown>>(client, "GetInfo", {})
      assert.deepEqual(info, {
        type: "CSIPlugin",
        name: "listeners.stackable.tech",
        endpoint: "/var/lib/kubelet/plugins/listeners.stackable.tech/csi.sock",
        supported_versions: ["1.0.0"]
      })
      await call(client, "NotifyRegistrationStatus", { plugin_registered: false, error: "version 9 unsupported" })
      assert.deepEqual(await Effect.runPromise(Ref.get(state)), { registered: false, error: "version 9 unsupported" })
      await call(client, "NotifyRegistrationStatus", { plugin_registered: true })
      assert.deepEqual(verdicts, [{ registered: false, error: "version 9 unsupported" }, { registered: true, error: "" }])
    } finally {
      client.close()
    }
    await Effect.runPromise(Scope.close(scope, Exit.void))
    assert.equal(existsSync(socket), false, "the socket is removed at shutdown")
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(dir, { recursive: true, force: true })
  }
})

test("bytes that are not a RegistrationStatus answer INVALID_ARGUMENT naming it; no verdict is recorded", async () => {
  const dir = mkdtempSync(join(tmpdir(), "plugins-registry-"))
  const scope = Effect.runSync(Scope.make())
  const verdicts: unknown[] = []
  try {
    const state = await Effect.runPromise(Scope.provide(scope)(serveRegistration({
      registrationDir: dir,
      kubeletCsiEndpoint: "/csi.sock",
      onStatus: (verdict) => Effect.sync(() => verdicts.push(verdict))
    })))
    const client = new Client(`unix://${join(dir, registrationSocketName("listeners.stackable.tech"))}`, credentials.createInsecure())
    try {
      const error = await new Promise<ServiceError | null>((resolve) => {
        client.makeUnaryRequest(
          "/pluginregistration.Registration/NotifyRegistrationStatus",
          (bytes: Buffer) => bytes,
          (bytes: Buffer) => bytes,
          Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]),
          (e) => resolve(e)
        )
      })
      assert.equal(error?.code, status.INVALID_ARGUMENT)
      assert.match(error?.details ?? "", /^the request is not a valid pluginregistration\.RegistrationStatus: /u)
    } finally {
      client.close()
    }
    assert.deepEqual(verdicts, [])
    assert.equal(await Effect.runPromise(Ref.get(state)), undefined)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(dir, { recursive: true, force: true })
  }
})
