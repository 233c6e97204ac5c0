// Fault suite, scenario 5: the node plugin (its own process, the compiled bundle the image
// runs) is SIGKILLed in the middle of NodePublishVolume calls, over and over; after each
// restart the kubelet-like retry must give a complete, correct tree, and a reader process
// polling every target meanwhile (treeReader.ts) must never see a half-written one.
//
// The Listener's address changes every round, so each publish writes a new tree: a third
// of the rounds publish to fresh targets (a first publish: staged, renamed into place), the
// rest publish again to the previous round's targets (a new version swapped in behind
// `..data`). Kills come at seeded random times, and in every third round the moment the new
// version's directory appears, so that they land in the middle of real swaps.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, readlinkSync, renameSync, watch, writeFileSync, type FSWatcher } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { CSI_DRIVER_NAME, LISTENER_API_VERSION } from "../../domain/constants.ts";
import { connectCsi, CsiCallError } from "../envtest/csiClient.ts";
import { createFakeNode } from "../envtest/fakeNodes.ts";
import { eventually, type KubeObject } from "../envtest/kubeClient.ts";
import { spawnTracked, type TrackedProcess } from "../envtest/processes.ts";
import { bindPodListeners, NS, startFaultPlane, type FaultPlane } from "./harness.ts";
import { report } from "./report.ts";
import { inspectTree, type WatchedTarget } from "./treeCheck.ts";
import type { ReaderControl, ReaderStatus } from "./treeReader.ts";

const CRASHES = Number(process.env["FAULTS_CRASHES"] ?? (process.env["CI"] === "true" ? 30 : 50));
const VOLUMES = 4;
const NODE = "crash-node";
const PORT = "8443";
const BUNDLE = resolve(import.meta.dirname, "..", "..", "dist", "bin", "main.js");
const READER = resolve(import.meta.dirname, "treeReader.ts");
const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1`;

/** mulberry32: a small seeded PRNG, so a failing run can be repeated with FAULTS_SEED. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** The address of round `round`: a new one every round, so every publish changes the tree. */
const addressOf = (round: number): string => `203.0.113.${(round % 250) + 1}`;

const sleep = (ms: number): Promise<void> => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** The number of the version `..data` points at, if any. */
const liveVersion = (target: string): number | undefined => {
  try {
    const match = /^\.\.v([0-9]+)$/u.exec(readlinkSync(join(target, "..data")));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
};

describe("node plugin SIGKILLed mid-publish", { timeout: 900_000 }, () => {
  let world: FaultPlane;
  let plugin: TrackedProcess | undefined;
  let reader: TrackedProcess | undefined;
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
      status: { ingressAddresses: [{ address: addressOf(0), addressType: "IP", ports: { http: Number(PORT) } }] }
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
      // And the PodListeners the controller's volume binder would make.
      await bindPodListeners(kube, pods[pods.length - 1]!);
    }
  });

  after(async () => {
    await reader?.stop();
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

  test(`${CRASHES} kills mid-publish, mid-swap: every retry converges to the new complete tree, the reader process never sees a partial one`, async () => {
    const random = prng(Number(process.env["FAULTS_SEED"] ?? 20261125));
    const kube = world.kube;

    // The reader process, told the targets of each round before anything publishes there.
    const controlPath = join(world.dir, "reader-control.json");
    const statusPath = join(world.dir, "reader-status.json");
    const readStatus = (): ReaderStatus | undefined => {
      try {
        return JSON.parse(readFileSync(statusPath, "utf8")) as ReaderStatus;
      } catch {
        return undefined;
      }
    };
    let seq = 0;
    const tellReader = async (targets: readonly WatchedTarget[], stop = false): Promise<ReaderStatus> => {
      const control: ReaderControl = { seq: ++seq, stop, targets };
      writeFileSync(`${controlPath}.tmp`, JSON.stringify(control));
      renameSync(`${controlPath}.tmp`, controlPath);
      return eventually(`reader at ${seq}`, async () => {
        if (!reader!.running() && !stop) throw new Error(`the reader exited:\n${reader!.logTail()}`);
        const status = readStatus();
        return status !== undefined && status.seq >= seq && (!stop || status.done) ? status : undefined;
      }, { timeoutMs: 30_000, intervalMs: 5 });
    };
    reader = spawnTracked({
      name: "tree-reader",
      command: process.execPath,
      args: ["--import", "tsx", READER, controlPath, statusPath],
      cwd: resolve(import.meta.dirname, "..", ".."),
      logPath: join(world.dir, "tree-reader.log")
    });
    await tellReader([]);

    let publishes = 0;
    let interrupted = 0;
    // Where each kill left the tree of each volume, before the retry.
    const atKill = { firstPublishUntouched: 0, firstPublishStaged: 0, firstPublishDone: 0, swapUntouched: 0, swapMidWrite: 0, swapDone: 0 };
    let triggeredKills = 0;
    let targets: string[] = [];

    for (let round = 0; round < CRASHES; round++) {
      // A new address for this round: the plugin reads it from the Listener's status.
      const previous = addressOf(round - 1);
      const address = addressOf(round);
      const fresh = round % 3 === 0;
      const triggered = round % 3 === 2;
      const roundTargets = pods.map((pod, i) =>
        fresh ? join(world.dir, "kubelet", "pods", pod.metadata.uid!, "volumes", "kubernetes.io~csi", `pv-crash-${i}-r${round}`, "mount") : targets[i]!);
      for (const target of roundTargets) await mkdir(join(target, ".."), { recursive: true });
      targets = roundTargets;
      const liveBefore = roundTargets.map(liveVersion);
      await tellReader(roundTargets.map((path) => ({ path, allowed: fresh ? [address] : [previous, address], port: PORT })));

      plugin = await startPlugin(round);
      const running = plugin;
      // Every third round: kill the moment a new version directory appears in any target
      // (plus up to 2 ms), i.e. while the plugin writes the tree it is about to swap in.
      const watchers: FSWatcher[] = [];
      const versionAppeared = new Promise<void>((resolveSeen) => {
        if (!triggered) return;
        roundTargets.forEach((target, i) => {
          watchers.push(watch(target, (_event, name) => {
            const number = /^\.\.v([0-9]+)$/u.exec(String(name ?? ""))?.[1];
            if (number !== undefined && Number(number) > (liveBefore[i] ?? 0)) resolveSeen();
          }));
        });
      });
      // The new address only once the plugin serves: its watch-driven refresh (on with
      // ADDRESS_REFRESH_SECONDS=0, which only turns the resync off) would otherwise swap every
      // recorded volume in while it starts, before any kill could land. Now the refresh and the
      // publishes below swap concurrently, and the kills land among them.
      await kube.patch(`${LISTENERS}/namespaces/${NS}/listeners/crashy/status`, {
        status: { ingressAddresses: [{ address, addressType: "IP", ports: { http: Number(PORT) } }] }
      }, "merge");
      const client = connectCsi(socket());
      const inFlight = pods.map((pod, i) => client.call("Node", "NodePublishVolume", publishRequest(pod, i, roundTargets[i]!), 10_000).then(() => "ok", (e: unknown) => e));
      if (triggered) {
        const seen = await Promise.race([versionAppeared.then(() => true), sleep(3000).then(() => false)]);
        if (seen) triggeredKills++;
        const extra = Math.floor(random() * 3);
        if (extra > 0) await sleep(extra);
      } else await sleep(Math.floor(random() * 150));
      await running.kill();
      for (const watcher of watchers) watcher.close();
      interrupted += (await Promise.all(inFlight)).filter((answer) => answer !== "ok").length;
      client.close();

      // What the kill left behind, volume by volume.
      roundTargets.forEach((target, i) => {
        const seen = inspectTree({ path: target, allowed: [previous, address], port: PORT });
        if (fresh) {
          if (seen.kind === "complete") atKill.firstPublishDone++;
          else if (existsSync(join(target, "..", ".mount.publishing"))) atKill.firstPublishStaged++;
          else atKill.firstPublishUntouched++;
        } else if (seen.kind === "complete" && seen.address === address) atKill.swapDone++;
        else {
          const live = liveVersion(target) ?? 0;
          const names = readdirSync(target);
          if (names.includes(`..v${live + 1}`) || names.includes("..data_tmp") || live !== liveBefore[i]) atKill.swapMidWrite++;
          else atKill.swapUntouched++;
        }
      });

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
        // The new address, complete, and nothing of the crash left: no half-written version,
        // no temporary link, no staging directory; only the live version and the one it replaced.
        const target = roundTargets[i]!;
        assert.deepEqual(inspectTree({ path: target, allowed: [address], port: PORT }), { kind: "complete", address }, `round ${round} volume ${i}`);
        const live = liveVersion(target)!;
        const hidden = readdirSync(target).filter((name) => name.startsWith("..")).sort();
        assert.ok(hidden.every((name) => ["..data", `..v${live}`, `..v${live - 1}`].includes(name)), `round ${round} volume ${i} left ${hidden.join(",")}`);
        assert.equal(existsSync(join(target, "..", ".mount.publishing")), false, `round ${round} volume ${i}: staging directory left`);
      }
      retry.close();
      await plugin.stop();
    }
    const final = await tellReader([], true);
    await reader.exited;
    assert.deepEqual(final.samples.slice(0, 5), [], `the reader saw ${final.failures} incomplete trees in ${final.looks} looks`);
    assert.equal(final.failures, 0);
    assert.ok(final.complete > CRASHES * VOLUMES, `the reader saw ${final.complete} complete trees in ${final.looks} looks`);
    assert.ok(interrupted > 0, "some kills landed in the middle of a publish");
    assert.ok(atKill.swapMidWrite > 0, `some kills landed in the middle of a swap: ${JSON.stringify(atKill)}`);
    report("node-plugin.sigkill", {
      kills: CRASHES,
      volumes: VOLUMES,
      publishesInterrupted: interrupted,
      triggeredKills,
      atKill,
      retries: publishes,
      readerLooks: final.looks,
      readerComplete: final.complete,
      incomplete: final.failures
    });
  });
});
