// Fault suite, scenario 2: the controller is cut off from the API server (a proxy on
// loopback drops its connections); meanwhile Listeners are created, changed and deleted,
// etcd is compacted and the API server restarts, so resuming the watches gets 410 Gone.
// The controller relists, and every change made during the gap lands.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { eventually, type KubeObject } from "../envtest/kubeClient.ts";
import { startCuttableProxy, type CuttableProxy } from "./cuttableProxy.ts";
import { awaitConverged, createListeners, metricSum, NS, spawnController, startFaultPlane } from "./harness.ts";
import type { ControllerProcess, FaultPlane } from "./harness.ts";
import { report } from "./report.ts";

const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1/namespaces/${NS}/listeners`;
const BEFORE = 100;
const CREATED = 30;
const DELETED = 10;
const CHANGED = 10;

describe("watch expiry while the controller is cut off", { timeout: 600_000 }, () => {
  let world: FaultPlane;
  let proxy: CuttableProxy;
  let controller: ControllerProcess;

  before(async () => {
    world = await startFaultPlane({ controllerManager: true });
    proxy = await startCuttableProxy(new URL(world.plane.server));
    const kubeconfigPath = join(world.dir, "via-proxy.kubeconfig");
    await writeFile(kubeconfigPath, world.plane.kubeconfigYaml.replace(world.plane.server, proxy.url), { mode: 0o600 });
    controller = await spawnController(world, "cut-off", { kubeconfigPath });
  });

  after(async () => {
    await controller?.proc.stop();
    await proxy?.close();
    await world?.stop();
  });

  const relists = async () => metricSum(await controller.metrics(), "controller_runtime_cache_events_total", { type: "Restarted" });

  test("410 Gone on resume: the controller relists and every change of the gap lands", async () => {
    await createListeners(world.kube, "w", BEFORE);
    await awaitConverged(world.kube, BEFORE);
    const relistsBefore = await relists();

    proxy.cut();
    await createListeners(world.kube, "gap", CREATED);
    for (let i = 0; i < DELETED; i++) await world.kube.delete(`${LISTENERS}/w-${i}`);
    for (let i = DELETED; i < DELETED + CHANGED; i++) {
      await world.kube.patch(`${LISTENERS}/w-${i}`, { spec: { ports: [{ name: "http", port: 9090 }] } }, "merge");
    }
    await world.plane.compactEtcd();
    await world.plane.restart("kube-apiserver", 1000);
    const restoredAt = Date.now();
    proxy.restore();

    const { state } = await awaitConverged(world.kube, BEFORE - DELETED + CREATED);
    assert.equal(state.orphaned, 0);
    assert.equal(state.duplicated, 0);
    for (let i = DELETED; i < DELETED + CHANGED; i++) {
      await eventually(`Service w-${i} on port 9090`, async () => {
        const service = await world.kube.get<KubeObject>(`/api/v1/namespaces/${NS}/services/w-${i}`);
        return ((service.spec?.["ports"] ?? []) as Array<{ port: number }>).some((p) => p.port === 9090);
      }, { timeoutMs: 60_000 });
      const listener = await world.kube.get<KubeObject>(`${LISTENERS}/w-${i}`);
      const ports = ((listener.status?.["ingressAddresses"] ?? []) as Array<{ ports: Record<string, number> }>).map((a) => a.ports["http"]);
      assert.deepEqual([...new Set(ports)], [9090], `Listener w-${i} reports the new port`);
    }
    for (let i = 0; i < DELETED; i++) {
      await eventually(`Service w-${i} gone with its Listener`, async () =>
        (await world.kube.getOrUndefined(`/api/v1/namespaces/${NS}/services/w-${i}`)) === undefined, { timeoutMs: 60_000 });
    }
    const convergedMs = Date.now() - restoredAt;
    const relistsDuring = (await relists()) - relistsBefore;
    assert.ok(relistsDuring >= 1, `the caches relisted (${relistsDuring})`);
    assert.ok(controller.proc.running(), "the controller never exited");
    // The relists were forced by 410 Gone on resume, not by a restart of the process.
    const gones = readFileSync(controller.proc.logPath, "utf8").split("\n").filter((line) => line.includes("resourceVersion expired; relisting")).length;
    assert.ok(gones >= 1, "the watches were resumed and answered 410 Gone");
    report("watch.expiry", { created: CREATED, deleted: DELETED, changed: CHANGED, gones, relists: relistsDuring, convergedAfterRestoreMs: convergedMs });
  });
});
