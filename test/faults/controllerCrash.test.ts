// Fault suite, scenarios 3 and 4: the controller is SIGKILLed mid-burst and restarted —
// afterwards it writes exactly what was left to do; and two replicas with leader election
// lose their leader mid-burst — the standby takes over and no Listener is written twice.
// Writes are counted by the API server itself (apiserver_request_total, every client).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually } from "../envtest/kubeClient.ts";
import {
  apiRequests,
  awaitConverged,
  convergence,
  createListeners,
  listenerCount,
  metricSum,
  requestsBetween,
  spawnController,
  startFaultPlane
} from "./harness.ts";
import type { ControllerProcess, FaultPlane } from "./harness.ts";
import { report } from "./report.ts";

/** Writes to what the Listener controller owns: Services and Listener status. */
const controllerWrites = (requests: Record<string, number>): number =>
  Object.entries(requests)
    .filter(([key]) => /^(CREATE|UPDATE|PATCH|APPLY|DELETE) (services|listeners\/status)$/.test(key))
    .reduce((sum, [, n]) => sum + n, 0);

const isLeader = async (controller: ControllerProcess): Promise<boolean> =>
  metricSum(await controller.metrics().catch(() => ""), "leader_election_master_status") === 1;

describe("controller crashes and leader failover mid-burst", { timeout: 900_000 }, () => {
  let world: FaultPlane;
  const controllers: ControllerProcess[] = [];

  before(async () => {
    world = await startFaultPlane();
  });

  after(async () => {
    for (const controller of controllers) await controller.proc.stop();
    await world?.stop();
  });

  test("SIGKILL mid-burst and restart: converges; the restarted controller writes only what was left", async () => {
    const count = listenerCount();
    const first = await spawnController(world, "crash-0");
    controllers.push(first);
    const before = await apiRequests(world.plane);
    await createListeners(world.kube, "crash", count);
    await eventually("a third addressed", async () => (await convergence(world.kube)).addressed >= count / 3, { timeoutMs: 120_000, intervalMs: 50 });
    await first.proc.kill();
    const atKill = await convergence(world.kube);
    const beforeRestart = await apiRequests(world.plane);
    const second = await spawnController(world, "crash-1");
    controllers.push(second);
    const { ms, state } = await awaitConverged(world.kube, count);
    assert.deepEqual(state, { listeners: count, addressed: count, services: count, orphaned: 0, duplicated: 0 });
    // Left to do at the kill: a status for Listeners with a Service but no address, a Service and a status for the rest.
    const leftToDo = (atKill.services - atKill.addressed) + 2 * (count - atKill.services);
    const afterRestart = controllerWrites(requestsBetween(beforeRestart, await apiRequests(world.plane)));
    assert.equal(afterRestart, leftToDo, "writes after the restart = what was left to do");
    const total = controllerWrites(requestsBetween(before, await apiRequests(world.plane)));
    assert.equal(total, 2 * count, "and 2 writes per Listener over both lives");
    report("controller.sigkill", { listeners: count, addressedAtKill: atKill.addressed, servicesAtKill: atKill.services, writesAfterRestart: afterRestart, leftToDo, convergedAfterRestartMs: ms, totalWrites: total });
    await second.proc.stop();
  });

  test("leader SIGKILLed mid-burst: the standby takes over, no Listener gets a second write", async () => {
    const count = listenerCount();
    const replicas = [await spawnController(world, "replica-a", { leaderElection: true }), await spawnController(world, "replica-b", { leaderElection: true })];
    controllers.push(...replicas);
    const leader = await eventually("a leader", async () => {
      for (const replica of replicas) if (await isLeader(replica)) return replica;
      return undefined;
    }, { timeoutMs: 60_000, intervalMs: 200 });
    const standby = replicas.find((r) => r !== leader)!;
    const before = await apiRequests(world.plane);
    await createListeners(world.kube, "failover", count);
    // The crash test's Listeners are converged already: wait for a third of the new ones.
    await eventually("a third addressed", async () => (await convergence(world.kube)).addressed >= count + count / 3, { timeoutMs: 120_000, intervalMs: 50 });
    await leader.proc.kill();
    const killedAt = Date.now();
    const atKill = await convergence(world.kube);
    await eventually("the standby leads", () => isLeader(standby), { timeoutMs: 120_000, intervalMs: 100 });
    const takeoverMs = Date.now() - killedAt;
    const { state } = await awaitConverged(world.kube, count * 2);
    const convergedMs = Date.now() - killedAt;
    assert.deepEqual(state, { listeners: count * 2, addressed: count * 2, services: count * 2, orphaned: 0, duplicated: 0 });
    const writes = controllerWrites(requestsBetween(before, await apiRequests(world.plane)));
    assert.equal(writes, 2 * count, "one Service write and one status write per new Listener, across both replicas");
    // Each Service has one applier: the field manager of the Listener controller, once.
    const services = (await world.kube.list<{ metadata: { managedFields?: Array<{ manager: string; operation: string }> } }>(
      `/api/v1/namespaces/faults/services`,
      { labelSelector: "app.kubernetes.io/managed-by=listeners.stackable.tech_listener" }
    )).items;
    for (const service of services) {
      const appliers = (service.metadata.managedFields ?? []).filter((f) => f.operation === "Apply").map((f) => f.manager);
      assert.deepEqual(appliers, ["listeners.stackable.tech_listener"]);
    }
    const standbyReconciles = metricSum(await standby.metrics(), "controller_runtime_reconcile_total", { controller: "listener" });
    report("controller.failover", { listeners: count, addressedAtKill: atKill.addressed - count, takeoverMs, convergedAfterKillMs: convergedMs, writes, standbyReconciles });
  });
});
