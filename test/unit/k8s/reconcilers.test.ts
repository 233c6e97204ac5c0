/**
 * The controller role's reconcile loops (k8s/reconcilers.ts) over the in-memory API server:
 * under a lease, both controllers reconcile only while this replica holds it.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import type { Scope } from "effect"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../domain/kinds.ts"
import { EventRecorder } from "../../../effects/shared/EventRecorder.ts"
import { KubeApi } from "../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../effects/shared/KubeApi.ts"
import { runReconcilers } from "../../../k8s/reconcilers.ts"
import { listenerClassObject, listenerObject, readyOf } from "../effects/controller/listenerHarness.ts"
import { waitFor } from "./waitFor.ts"

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Effect.scoped(effect))

const lease = { namespace: "default", name: "listener-operator" }
const timing = { leaseDuration: "3 seconds", renewDeadline: "2 seconds", retryPeriod: "100 millis" } as const

const holderOf = (lease: KubeObject | undefined) => (lease?.["spec"] as { holderIdentity?: string } | undefined)?.holderIdentity

const world = Effect.gen(function*() {
  const cluster = yield* KubeApiMemory.make({
    objects: [listenerClassObject("internal", { serviceType: "ClusterIP" }), listenerObject("web", { className: "internal", ports: [{ name: "http", port: 80 }] })]
  })
  const listener = () => cluster.objects(Kinds.Listener, "apps").find((o) => o.metadata.name === "web")
  const leaseObject = () => cluster.objects(Kinds.Lease, "default").find((o) => o.metadata.name === lease.name)
  const start = (identity: string) =>
    runReconcilers({ leaderElection: { lease, identity, ...timing } }).pipe(
      Effect.provideService(KubeApi, cluster.api),
      Effect.provide(EventRecorder.layerNoop),
      Effect.forkScoped
    )
  return { cluster, listener, leaseObject, start }
})


test("reconcilers with leader election: reconcile once this replica holds the Lease", () =>
  run(Effect.gen(function*() {
    const { listener, leaseObject, start } = yield* world
    yield* start("replica-a")
    yield* waitFor("Reconciled", () => readyOf(listener())?.["reason"] === "Reconciled")
    assert.equal(holderOf(leaseObject()), "replica-a")
  })))

test("reconcilers with leader election: nothing is reconciled while another replica holds the Lease", () =>
  run(Effect.gen(function*() {
    const { cluster, listener, start } = yield* world
    const now = new Date().toISOString().replace(/Z$/u, "000Z")
    yield* cluster.api.create(Kinds.Lease, {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { ...lease },
      spec: { holderIdentity: "replica-b", leaseDurationSeconds: 60, acquireTime: now, renewTime: now, leaseTransitions: 0 }
    })
    yield* start("replica-a")
    yield* Effect.sleep("500 millis")
    assert.equal(readyOf(listener()), undefined, "reconciled without the lease")
    assert.equal(cluster.objects(Kinds.Service, "apps").length, 0)
  })))
