/**
 * The Identity service over a real socket: plugin info, capabilities per role, and Probe
 * answering ready=false until the readiness check first passes.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, References, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeCsiClient } from "../../../csi/client.ts"
import { makeIdentityService } from "../../../csi/identity.ts"
import type { IdentityConfig } from "../../../csi/identity.ts"
import { serveCsi } from "../../../csi/server.ts"

const withIdentity = <A, E>(
  config: IdentityConfig,
  body: (client: Effect.Success<ReturnType<typeof makeCsiClient>>) => Effect.Effect<A, E, Scope.Scope>
): Promise<A> => {
  const dir = mkdtempSync(join(tmpdir(), "csi-"))
  const socket = join(dir, "csi.sock")
  return Effect.runPromise(Effect.gen(function*() {
    yield* serveCsi({ endpoint: socket, services: [yield* makeIdentityService(config)] })
    return yield* body(yield* makeCsiClient(socket))
  }).pipe(
    Effect.scoped,
    Effect.provideService(References.MinimumLogLevel, "None"),
    Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true })))
  ))
}

test("GetPluginInfo names the driver and the configured version", () =>
  withIdentity({ vendorVersion: "0.1.0", controllerService: true, readiness: Effect.void }, (client) =>
    Effect.gen(function*() {
      const info = yield* client.call("Identity", "GetPluginInfo", {})
      assert.equal(info.name, "listeners.stackable.tech")
      assert.equal(info.vendor_version, "0.1.0")
      // csi-sanity's rule for plugin names.
      assert.match(info.name, /^[a-zA-Z][A-Za-z0-9-._]{0,61}[a-zA-Z]$/)
    })))

test("the controller role advertises CONTROLLER_SERVICE and VOLUME_ACCESSIBILITY_CONSTRAINTS", () =>
  withIdentity({ vendorVersion: "0.1.0", controllerService: true, readiness: Effect.void }, (client) =>
    Effect.gen(function*() {
      const { capabilities } = yield* client.call("Identity", "GetPluginCapabilities", {})
      assert.deepEqual(capabilities.map((capability) => capability.service.type), [
        "CONTROLLER_SERVICE",
        "VOLUME_ACCESSIBILITY_CONSTRAINTS"
      ])
    })))

test("the node role advertises only VOLUME_ACCESSIBILITY_CONSTRAINTS", () =>
  withIdentity({ vendorVersion: "0.1.0", controllerService: false, readiness: Effect.void }, (client) =>
    Effect.gen(function*() {
      const { capabilities } = yield* client.call("Identity", "GetPluginCapabilities", {})
      assert.deepEqual(capabilities.map((capability) => capability.service.type), ["VOLUME_ACCESSIBILITY_CONSTRAINTS"])
    })))

test("Probe answers ready=false until the readiness check passes, then ready=true without checking again", async () => {
  let checks = 0
  const readiness = Effect.suspend(() => {
    checks++
    if (checks === 1) return Effect.fail(new Error("API server not reachable"))
    if (checks === 2) return Effect.die(new Error("client not configured"))
    return Effect.void
  })
  await withIdentity({ vendorVersion: "0.1.0", controllerService: false, readiness }, (client) =>
    Effect.gen(function*() {
      const probe = Effect.map(client.call("Identity", "Probe", {}), (response) => response.ready?.value)
      assert.equal(yield* probe, false)
      assert.equal(yield* probe, false)
      assert.equal(yield* probe, true)
      assert.equal(yield* probe, true)
      assert.equal(checks, 3)
    }))
})

test("a readiness check that hangs counts as not ready", () =>
  withIdentity(
    { vendorVersion: "0.1.0", controllerService: false, readiness: Effect.never, readinessTimeout: "50 millis" },
    (client) =>
      Effect.gen(function*() {
        const response = yield* client.call("Identity", "Probe", {})
        assert.equal(response.ready?.value, false)
      })
  ))
