// Fault suite, scenario 7: load. Thousands of Listeners are created and, at the same time,
// hundreds of Pods ask their node plugins to publish a volume of one of them — retrying
// UNAVAILABLE as the kubelet does until the Listener has its address. No error, every tree
// right; NodePublishVolume latency (per call and until published) and the controller's
// work-queue depth over time are reported.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Effect, Exit, Layer, Scope } from "effect";
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts";
import { CSI_DRIVER_NAME } from "../../domain/constants.ts";
import { Readiness } from "../../k8s/operability/probes.ts";
import { nodeRoleLayer } from "../../k8s/composition/nodeRoleLayer.ts";
import { connectCsi, CsiCallError, type CsiClient } from "../envtest/csiClient.ts";
import { createFakeNode } from "../envtest/fakeNodes.ts";
import type { KubeObject } from "../envtest/kubeClient.ts";
import { awaitConverged, createListeners, metricSum, NS, spawnController, startFaultPlane } from "./harness.ts";
import type { ControllerProcess, FaultPlane } from "./harness.ts";
import { report } from "./report.ts";

const LISTENERS = Number(process.env["FAULTS_LOAD_LISTENERS"] ?? (process.env["CI"] === "true" ? 1000 : 5000));
const PODS = Number(process.env["FAULTS_LOAD_PODS"] ?? (process.env["CI"] === "true" ? 100 : 500));
const NODES = 5;

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

describe("load: Listeners and publishing Pods at once", { timeout: 900_000 }, () => {
  let world: FaultPlane;
  let controller: ControllerProcess;
  let scope: Scope.Closeable;
  const sockets: string[] = [];

  before(async () => {
    world = await startFaultPlane();
    for (let n = 0; n < NODES; n++) {
      await createFakeNode(world.kube, { name: `load-${n}`, addresses: [{ type: "InternalIP", address: `192.0.2.${50 + n}` }] });
      sockets.push(join(world.dir, `load-${n}.sock`));
    }
    const [first, ...rest] = sockets.map((socket, n) => nodeRoleLayer({ csiEndpoint: socket, nodeName: `load-${n}`, vendorVersion: "load" }));
    const nodes = Layer.mergeAll(first!, ...rest);
    scope = Effect.runSync(Scope.make());
    await Effect.runPromise(Layer.buildWithScope(
      nodes.pipe(Layer.provide(Layer.merge(KubeApiHttp.layerFromKubeconfigFile(world.plane.kubeconfigPath), Readiness.layer))),
      scope
    ));
    controller = await spawnController(world, "load-controller");
  });

  after(async () => {
    await controller?.proc.stop();
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void));
    await world?.stop();
  });

  /** A PVC, its PV and a Pod on node `n` mounting Listener `listener` (by name). */
  const podVolume = async (index: number, listener: string) => {
    const name = `pod-${index}`;
    const node = `load-${index % NODES}`;
    const claim = await world.kube.create<KubeObject>(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
      metadata: { name: `data-${name}`, annotations: { "listeners.stackable.tech/listener-name": listener } },
      spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } }, storageClassName: "listeners.stackable.tech", volumeName: `pv-${name}` }
    });
    await world.kube.create("/api/v1/persistentvolumes", {
      metadata: { name: `pv-${name}` },
      spec: {
        capacity: { storage: "1" },
        accessModes: ["ReadWriteMany"],
        storageClassName: "listeners.stackable.tech",
        claimRef: { namespace: NS, name: `data-${name}`, uid: claim.metadata.uid },
        csi: { driver: CSI_DRIVER_NAME, volumeHandle: `pv-${name}`, volumeAttributes: { "listeners.stackable.tech/listener-name": listener } }
      }
    });
    const pod = await world.kube.create<KubeObject>(`/api/v1/namespaces/${NS}/pods`, {
      metadata: { name },
      spec: {
        nodeName: node,
        containers: [{ name: "app", image: "busybox", ports: [{ name: "http", containerPort: 8080 }] }],
        volumes: [{ name: "listener", persistentVolumeClaim: { claimName: `data-${name}` } }]
      }
    });
    const target = join(world.dir, "kubelet", pod.metadata.uid!, "volumes", "kubernetes.io~csi", `pv-${name}`, "mount");
    await mkdir(join(target, ".."), { recursive: true });
    return { pod, node: index % NODES, target, listener, volumeId: `pv-${name}` };
  };

  test("no error, every tree right; publish latency and queue depth reported", async () => {
    const volumes = [];
    for (let i = 0; i < PODS; i++) volumes.push(await podVolume(i, `load-${(i * 7) % LISTENERS}`));
    const clients: CsiClient[] = sockets.map((socket) => connectCsi(socket));

    // Queue depth of the controller, sampled while it works.
    const depth: Array<{ atMs: number; depth: number }> = [];
    const started = Date.now();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        depth.push({ atMs: Date.now() - started, depth: metricSum(await controller.metrics().catch(() => ""), "workqueue_depth", { controller: "listener" }) });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();

    const callMs: number[] = [];
    const untilPublishedMs: number[] = [];
    const unexpected: string[] = [];
    const publishUntilDone = async (volume: Awaited<ReturnType<typeof podVolume>>) => {
      const first = Date.now();
      for (let attempt = 0, delay = 250; ; attempt++, delay = Math.min(delay * 2, 2000)) {
        const t = Date.now();
        try {
          await clients[volume.node]!.call("Node", "NodePublishVolume", {
            volume_id: volume.volumeId,
            target_path: volume.target,
            volume_capability: { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" } },
            readonly: false,
            volume_context: {
              "listeners.stackable.tech/listener-name": volume.listener,
              "csi.storage.k8s.io/pod.name": volume.pod.metadata.name,
              "csi.storage.k8s.io/pod.namespace": NS,
              "csi.storage.k8s.io/pod.uid": volume.pod.metadata.uid,
              "csi.storage.k8s.io/serviceAccount.name": "default",
              "csi.storage.k8s.io/ephemeral": "false"
            }
          }, 120_000);
          callMs.push(Date.now() - t);
          untilPublishedMs.push(Date.now() - first);
          return;
        } catch (error) {
          callMs.push(Date.now() - t);
          if (!(error instanceof CsiCallError) || error.codeName !== "Unavailable") {
            unexpected.push(`${volume.pod.metadata.name}: ${String(error)}`);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    };

    // At once: the Listeners are created while every Pod starts publishing.
    const creating = createListeners(world.kube, "load", LISTENERS, 48);
    await Promise.all([creating, ...volumes.map(publishUntilDone)]);
    await awaitConverged(world.kube, LISTENERS, 600_000);
    const allAddressedMs = Date.now() - started;
    sampling = false;
    await sampler;
    for (const client of clients) client.close();

    assert.deepEqual(unexpected, [], "no error other than UNAVAILABLE while waiting");
    for (const volume of volumes) {
      const address = readFileSync(join(volume.target, "default-address", "address"), "utf8");
      assert.equal(address, `${volume.listener}.${NS}.svc.cluster.local`, `${volume.pod.metadata.name} has its Listener's address`);
      assert.equal(readFileSync(join(volume.target, "default-address", "ports", "http"), "utf8"), "8080");
    }
    assert.ok(controller.proc.running(), "the controller never exited");
    const calls = [...callMs].sort((a, b) => a - b);
    const published = [...untilPublishedMs].sort((a, b) => a - b);
    const peak = Math.max(0, ...depth.map((d) => d.depth));
    report("load", {
      listeners: LISTENERS,
      pods: PODS,
      nodes: NODES,
      publishCalls: calls.length,
      callP50Ms: percentile(calls, 50),
      callP99Ms: percentile(calls, 99),
      untilPublishedP50Ms: percentile(published, 50),
      untilPublishedP99Ms: percentile(published, 99),
      allAddressedMs,
      queueDepthPeak: peak,
      queueDepthSamples: depth.filter((_, i) => i % 4 === 0).map((d) => `${(d.atMs / 1000).toFixed(1)}s:${d.depth}`).join(" ")
    });
  });
});
