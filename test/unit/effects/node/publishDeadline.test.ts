/**
 * The publish wait (effects/node/listenerCatchUp.ts) bounded by the gRPC call's deadline: the CSI
 * server hands each handler its call's deadline (csi/server.ts → effects/shared/CallDeadline.ts),
 * and a publish waiting for the controller stops DEADLINE_MARGIN_MS before it, answering
 * with its own not-ready error (UNAVAILABLE, saying why) instead of the transport's bare
 * DEADLINE_EXCEEDED. Over a real Unix socket with a grpc-js client.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { status } from "@grpc/grpc-js"
import { Duration, Effect, Option, References } from "effect"
import type { Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeCsiClient } from "../../../../csi/client.ts"
import { makeIdentityService } from "../../../../csi/identity.ts"
import { serveCsi } from "../../../../csi/server.ts"
import type { CsiService } from "../../../../csi/server.ts"
import type { Listener } from "../../../../domain/listener.ts"
import { CallDeadline, DEADLINE_MARGIN_MS } from "../../../../effects/shared/CallDeadline.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { NodeView, uncachedNodeView } from "../../../../effects/node/NodeView.ts"
import { whileCatchingUp } from "../../../../effects/node/listenerCatchUp.ts"
import { ListenerAddressesNotReady } from "../../../../effects/shared/volumeErrors.ts"

/** A Listener whose Service exists but whose node ports the controller has not written yet. */
const listener: Listener = {
  metadata: { name: "web", namespace: "default", uid: "1d2c3b4a", generation: 1 },
  spec: { className: "nodeport", ports: [{ name: "http", port: 8080, protocol: "TCP" }], extraPodSelectorLabels: {}, publishNotReadyAddresses: true, objectOverrides: [] }
}
const notYet = new ListenerAddressesNotReady({
  namespace: "default",
  listener: "web",
  awaiting: "NodePorts",
  problem: "status.nodePorts is empty (no node ports allocated yet)"
})

/** A node view whose caches never change: the controller never catches up. */
const stuckView = (publishWait: Duration.Input) => ({ ...uncachedNodeView, publishWait: Duration.fromInputUnsafe(publishWait) })

/** A publish that waits for the Listener (never ready) under `publishWait`. */
const waitingPublish = (publishWait: Duration.Input) =>
  whileCatchingUp(listener, () => Effect.fail(notYet)).pipe(Effect.provideService(NodeView, stuckView(publishWait)))

const node = (publishWait: Duration.Input): CsiService => ({
  name: "Node",
  handlers: { NodePublishVolume: () => waitingPublish(publishWait) }
})

const overSocket = <A, E>(publishWait: Duration.Input, body: (call: (timeout?: Duration.Input) => Effect.Effect<{ code: number; details: string; ms: number }>) => Effect.Effect<A, E, Scope.Scope>) => {
  const dir = mkdtempSync(join(tmpdir(), "csi-deadline-"))
  return Effect.runPromise(Effect.gen(function*() {
    const identity = yield* makeIdentityService({ vendorVersion: "1", controllerService: false, readiness: Effect.void })
    yield* serveCsi({ endpoint: join(dir, "csi.sock"), services: [identity, node(publishWait)] })
    const client = yield* makeCsiClient(join(dir, "csi.sock"))
    // Connected first, so the measured time is the call's alone.
    yield* client.call("Identity", "Probe", {})
    return yield* body((timeout) =>
      Effect.gen(function*() {
        const started = Date.now()
        const error = yield* Effect.flip(client.call("Node", "NodePublishVolume", {}, timeout === undefined ? undefined : { timeout }))
        return { code: error.code, details: error.details, ms: Date.now() - started }
      }).pipe(Effect.orDie)
    )
  }).pipe(
    Effect.scoped,
    Effect.provideService(References.MinimumLogLevel, "None"),
    Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  ))
}

test("a call whose deadline comes before publishWait ends fails with the not-ready error before the deadline, not DEADLINE_EXCEEDED", () =>
  overSocket("5 seconds", (call) =>
    Effect.gen(function*() {
      const outcome = yield* call("2500 millis")
      assert.equal(outcome.code, status.UNAVAILABLE, `answered ${outcome.code}: ${outcome.details}`)
      assert.match(outcome.details, /Listener default\/web has no addresses yet: status\.nodePorts is empty/u)
      assert.match(outcome.details, new RegExp(`the wait ends ${DEADLINE_MARGIN_MS} ms before the call's deadline`, "u"))
      // It waited (up to the deadline less the margin), and answered before the deadline.
      assert.ok(outcome.ms >= 2500 - DEADLINE_MARGIN_MS - 100, `answered after ${outcome.ms} ms`)
      assert.ok(outcome.ms < 2500, `answered after ${outcome.ms} ms, past the deadline`)
    })))

test("a deadline closer than the margin: the publish fails at once with its own error", () =>
  overSocket("5 seconds", (call) =>
    Effect.gen(function*() {
      const outcome = yield* call("900 millis")
      assert.equal(outcome.code, status.UNAVAILABLE, `answered ${outcome.code}: ${outcome.details}`)
      // "At once": no wait was begun; the few ms it reports are the publish's own work on a loaded machine.
      const waited = /waited (\d+) ms for the controller; the wait ends 1000 ms before the call's deadline/u.exec(outcome.details)
      assert.ok(waited !== null, outcome.details)
      assert.ok(Number(waited[1]) < 100, `waited ${waited[1]} ms`)
      assert.ok(outcome.ms < 900, `answered after ${outcome.ms} ms`)
    })))

test("a far deadline (the kubelet's 2 minutes) or none: the wait lasts publishWait", () =>
  overSocket("600 millis", (call) =>
    Effect.gen(function*() {
      for (const timeout of ["2 minutes", undefined] as const) {
        const outcome = yield* call(timeout)
        assert.equal(outcome.code, status.UNAVAILABLE)
        assert.match(outcome.details, /the wait ends after publishWait\)$/u)
        assert.ok(outcome.ms >= 550 && outcome.ms < 3000, `answered after ${outcome.ms} ms (deadline ${String(timeout)})`)
      }
    })))

test("outside a call (no CallDeadline) with publishWait zero the error is returned as it is, at once", () =>
  Effect.runPromise(Effect.gen(function*() {
    assert.equal(yield* CallDeadline, Number.POSITIVE_INFINITY)
    const error = yield* Effect.flip(waitingPublish(Duration.zero))
    assert.equal(error, notYet)
  })))

test("a deadline already past: no wait, the error says why", () =>
  Effect.runPromise(Effect.gen(function*() {
    const started = Date.now()
    const error = yield* Effect.flip(waitingPublish("5 seconds").pipe(Effect.provideService(CallDeadline, Date.now() - 10)))
    assert.ok(Date.now() - started < 500)
    assert.ok(error instanceof ListenerAddressesNotReady)
    assert.equal(error.awaiting, "NodePorts")
    assert.match(error.message, /before the call's deadline\)$/u)
  })))

test("a status the watch brought before the wait began is used at once (its change was counted already)", () =>
  Effect.runPromise(Effect.gen(function*() {
    // The controller's status arrived on the watch while the publish's own apply was being
    // answered: the cache holds the addressed version, its change is counted, and no
    // further change will come. The publish must not wait for one.
    const addressed = { ...listener, metadata: { ...listener.metadata, resourceVersion: "2" }, status: { nodePorts: { http: 30080 } } }
    const view = {
      ...stuckView("5 seconds"),
      listener: () => Effect.succeed(Option.some(addressed as unknown as KubeObject)),
      changeCount: Effect.succeed(1)
    }
    const started = Date.now()
    const ports = yield* whileCatchingUp(listener, (current) =>
      current.status?.nodePorts === undefined ? Effect.fail(notYet) : Effect.succeed(current.status.nodePorts)
    ).pipe(Effect.provideService(NodeView, view))
    assert.deepEqual(ports, { http: 30080 })
    assert.ok(Date.now() - started < 1000, `answered after ${Date.now() - started} ms`)
  })))
