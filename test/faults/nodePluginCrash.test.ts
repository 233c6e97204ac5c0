// Fault suite, scenario 5: the node plugin (its own process, the compiled bundle the image
// runs) is SIGKILLed in the middle of NodePublishVolume calls, at seeded random points, over
// and over; after each restart the kubelet-like retry must give a complete, correct tree,
// and a reader polling every target meanwhile must never see a half-written one.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { CSI_DRIVER_NAME, LISTENER_API_VERSION } from "../../domain/constants.ts";
import { connectCsi, CsiCallError } from "../envtest/csiClient.ts";
import { createFakeNode } from "../envtest/fakeNodes.ts";
import { eventually, type KubeObject } from "../envtest/kubeClient.ts";
import { spawnTracked, type TrackedProcess } from "../envtest/processes.ts";
import { NS, startFaultPlane, type FaultPlane } from "./harness.ts";
import { report } from "./report.ts";

const CRASHES = Number(process.env["FAULTS_CRASHES"] ?? (process.env["CI"] === "true" ? 30 : 50));
const VOLUMES = 4;
const NODE = "crash-node";
const ADDRESS = "203.0.113.77";
const PORT = "8443";
const BUNDLE = resolve(import.meta.dirname, "..", "..", "dist", "bin", "main.js");
const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1`;

/** mulberry32: a small seeded PRNG, so a failing run can be repeated with FAULTS_SEED. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** What a reader sees at a target: nothing yet, a complete tree, or a broken one (with why). */
const inspect = (target: string): "absent" | "complete" | string => {
  try {
    if (!existsSync(target)) return "absent";
    const visible = readdirSync(target).filter((name) => !name.startsWith(".."));
    if (visible.length === 0) return "absent";
    if (!visible.includes("default-address")) return `default-address missing beside ${visible.join(",")}`;
    const address = readFileSync(join(target, "default-address", "address"), "utf8");
    if (address !== ADDRESS) return `default-address/address is ${JSON.stringify(address)}`;
    const port = readFileSync(join(target, "default-address", "ports", "http"), "utf8");
    if (port !== PORT) return `default-address/ports/http is ${JSON.stringify(port)}`;
    if (readlinkSync(join(target, "default-address")).length === 0) return "empty default-address link";
    if (readFileSync(join(target, "addresses", ADDRESS, "address"), "utf8") !== ADDRESS) return "addresses/<a>/address differs";
    return "complete";
  } catch (error) {
    return `unreadable: ${(error as Error).message}`;
  }
};

describe("node plugin SIGKILLed mid-publish", { timeout: 900_000 }, () => {
  let world: FaultPlane;
  let plugin: TrackedProcess | undefined;
  const pods: KubeObject[] = [];

  before(async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: npm run bundle`);
    world = await startFaultPlane();
    const kube = world.kube;
    await createFakeNode(kube, { name: NODE, addresses: [{ type: "InternalIP", address: "192.0.2.77" }] });
    await kube.create(`${LISTENERS}/listenerclasses`, { apiVersion: LISTENER_API_VERSION, kind: "ListenerClass", metadata: { name: "lb" }, spec: { serviceType: "LoadBalancer" } });
    await kube.create(`${LISTENERS}/namespaces/${NS}/listeners`, {
      apiVersion: LISTENER_API_VERSION, kind: "Listener", metadata: { name: "crashy" }, spec: { className: "lb", ports: [{ name: "http", port: 8080 }] }
    });
    // No controller runs here: the Listener's addresses are set as the controller would.
    await kube.patch(`${LISTENERS}/namespaces/${NS}/listeners/crashy/status`, {
      status: { ingressAddresses: [{ address: ADDRESS, addressType: "IP", ports: { http: Number(PORT) } }] }
    }, "merge");
    for (let i = 0; i < VOLUMES; i++) {
      const claim = await kube.create<KubeObject>(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
        metadata: { name: `data-${i}`, annotations: { "listeners.stackable.tech/listener-name": "crashy" } },
        spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } }, storageClassName: "listeners.stackable.tech", volumeName: `pv-crash-${i}` }
      });
      await kube.create("/api/v1/persistentvolumes", {
        metadata: { name: `pv-crash-${i}` },
        spec: {
          capacity: { storage: "1" }, accessModes: ["ReadWriteMany"], storageClassName: "listeners.stackable.tech",
          claimRef: { namespace: NS, name: `data-${i}`, uid: claim.metadata.uid },
          csi: { driver: CSI_DRIVER_NAME, volumeHandle: `pv-crash-${i}`, volumeAttributes: { "listeners.stackable.tech/listener-name": "crashy" } }
        }
      });
      pods.push(await kube.create<KubeObject>(`/api/v1/namespaces/${NS}/pods`, {
        metadata: { name: `crash-${i}` },
        spec: {
          nodeName: NODE,
          containers: [{ name: "app", image: "busybox", ports: [{ name: "http", containerPort: 8080 }] }],
          volumes: [{ name: "listener", persistentVolumeClaim: { claimName: `data-${i}` } }]
        }
      }));
    }
  });

  after(async () => {
    await plugin?.stop();
    await world?.stop();
  });

  const socket = () => join(world.dir, "node.sock");

  const startPlugin = async (round: number): Promise<TrackedProcess> => {
    const proc = spawnTracked({
      name: `node-plugin-${round}`,
      command: process.execPath,
      args: [BUNDLE, "run", "node"],
      logPath: join(world.dir, "node-plugin.log"),
      env: {
        ...process.env,
        KUBECONFIG: world.plane.kubeconfigPath,
        CSI_ENDPOINT: socket(),
        KUBERNETES_NODE_NAME: NODE,
        METRICS_PORT: "0",
        ADDRESS_REFRESH_SECONDS: "0",
        LOG_FORMAT: "text"
      }
    });
    const probe = connectCsi(socket());
    try {
      await eventually("node plugin serving", async () => {
        if (!proc.running()) throw new Error(`node plugin exited:\n${proc.logTail()}`);
        return probe.call("Identity", "Probe", {}, 1000).then(() => true, () => false);
      }, { timeoutMs: 30_000, intervalMs: 20 });
    } finally {
      probe.close();
    }
    return proc;
  };

  const publishRequest = (pod: KubeObject, index: number, target: string) => ({
    volume_id: `pv-crash-${index}`,
    target_path: target,
    volume_capability: { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "MULTI_NODE_MULTI_WRITER" } },
    readonly: false,
    volume_context: {
      "listeners.stackable.tech/listener-name": "crashy",
      "csi.storage.k8s.io/pod.name": pod.metadata.name,
      "csi.storage.k8s.io/pod.namespace": NS,
      "csi.storage.k8s.io/pod.uid": pod.metadata.uid,
      "csi.storage.k8s.io/serviceAccount.name": "default",
      "csi.storage.k8s.io/ephemeral": "false"
    }
  });

  test(`${CRASHES} kills at random points: every retry converges to a complete tree, no reader ever sees a partial one`, async () => {
    const random = prng(Number(process.env["FAULTS_SEED"] ?? 20261125));
    let observations = 0;
    let publishes = 0;
    let interrupted = 0;
    const incomplete: string[] = [];
    let targets: string[] = [];
    let reading = true;
    // The reader: polls every target of the current round as fast as the event loop allows.
    const reader = (async () => {
      while (reading) {
        for (const target of targets) {
          const seen = inspect(target);
          observations++;
          if (seen !== "absent" && seen !== "complete") incomplete.push(`${target}: ${seen}`);
        }
        await new Promise((resolveTick) => setImmediate(resolveTick));
      }
    })();

    for (let round = 0; round < CRASHES; round++) {
      // Alternate fresh targets (first publish) and the previous round's (re-publish over a tree).
      const reuse = round % 2 === 1;
      const roundTargets = pods.map((pod, i) =>
        reuse ? targets[i]! : join(world.dir, "kubelet", "pods", pod.metadata.uid!, "volumes", "kubernetes.io~csi", `pv-crash-${i}-r${round}`, "mount"));
      for (const target of roundTargets) await mkdir(join(target, ".."), { recursive: true });
      targets = roundTargets;

      plugin = await startPlugin(round);
      const client = connectCsi(socket());
      const inFlight = pods.map((pod, i) => client.call("Node", "NodePublishVolume", publishRequest(pod, i, roundTargets[i]!), 10_000).then(() => "ok", (e: unknown) => e));
      await new Promise((resolveDelay) => setTimeout(resolveDelay, Math.floor(random() * 150)));
      await plugin.kill();
      interrupted += (await Promise.all(inFlight)).filter((answer) => answer !== "ok").length;
      client.close();

      // The kubelet retries against the restarted plugin until each publish succeeds.
      plugin = await startPlugin(round);
      const retry = connectCsi(socket());
      for (let i = 0; i < pods.length; i++) {
        await eventually(`publish ${i} after kill ${round}`, async () => {
          publishes++;
          const answer = await retry.call("Node", "NodePublishVolume", publishRequest(pods[i]!, i, roundTargets[i]!), 10_000).then(() => "ok", (e: unknown) => e);
          if (answer !== "ok" && !(answer instanceof CsiCallError)) throw answer;
          return answer === "ok";
        }, { timeoutMs: 30_000, intervalMs: 50 });
        assert.equal(inspect(roundTargets[i]!), "complete", `round ${round} volume ${i}`);
      }
      retry.close();
      await plugin.stop();
    }
    reading = false;
    await reader;
    assert.deepEqual(incomplete.slice(0, 5), [], `${incomplete.length} incomplete observations`);
    assert.ok(observations > CRASHES * VOLUMES, `the reader looked ${observations} times`);
    assert.ok(interrupted > 0, "some kills landed in the middle of a publish");
    report("node-plugin.sigkill", { kills: CRASHES, volumes: VOLUMES, publishesInterrupted: interrupted, retries: publishes, readerObservations: observations, incomplete: incomplete.length });
  });
});
