// Fault suite, scenario 1: the API server, then etcd, crash mid-burst while the controller
// (its own process) reconciles; once they are back, every Listener converges with exactly
// one Service, nothing orphaned, and the controller process never exited.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { awaitConverged, convergence, convergenceNow, createListeners, listenerCount, spawnController, startFaultPlane } from "./harness.ts";
import type { ControllerProcess, FaultPlane } from "./harness.ts";
import { report } from "./report.ts";

const OUTAGE_MS = Number(process.env["FAULTS_OUTAGE_MS"] ?? 15_000);

describe("API server and etcd outages mid-burst", { timeout: 900_000 }, () => {
  let world: FaultPlane;
  let controller: ControllerProcess;

  before(async () => {
    world = await startFaultPlane();
    controller = await spawnController(world, "controller-0");
  });

  after(async () => {
    await controller?.proc.stop();
    await world?.stop();
  });

  for (const [component, prefix] of [["kube-apiserver", "api"], ["etcd", "etcd"]] as const) {
    test(`${component} killed for ${OUTAGE_MS / 1000} s mid-burst: all converge, no orphan or duplicate Service, the controller never exits`, async () => {
      const count = listenerCount();
      // The Listeners of the test before (if it ran) are converged already.
      const existing = (await convergenceNow(world.kube)).listeners;
      const total = existing + count;
      await createListeners(world.kube, prefix, count);
      const atKill = await convergence(world.kube);
      await world.plane.restart(component, OUTAGE_MS);
      const { ms, state } = await awaitConverged(world.kube, total);
      assert.deepEqual(state, { listeners: total, addressed: total, services: total, orphaned: 0, duplicated: 0 });
      assert.ok(controller.proc.running(), `the controller exited:\n${controller.proc.logTail()}`);
      assert.ok(await controller.ready(), "and is ready again");
      report(`outage.${component}`, {
        listeners: count,
        addressedAtKill: atKill.addressed - existing,
        downMs: OUTAGE_MS,
        convergedAfterBackMs: ms,
        orphaned: state.orphaned,
        duplicated: state.duplicated,
        controllerRestarts: 0
      });
    });
  }
});
