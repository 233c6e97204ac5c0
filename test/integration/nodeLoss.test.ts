// Node-loss recovery for pinned listener volumes on the real control plane (kube-apiserver,
// controller manager with the StatefulSet, PV binder and protection controllers, scheduler,
// csi-provisioner), with our roles in this process and a kubelet stand-in per fake node
// (test/envtest/localCluster.ts): a Node is deleted or goes NotReady, and the replicas
// pinned to it move — or, with recovery off, stay and an Event says what to do.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { LISTENER_API_VERSION } from "../../domain/constants.ts";
import { statefulSet } from "../e2e/workloads.ts";
import { createNamespace, eventually, type KubeClient, type KubeObject } from "../envtest/kubeClient.ts";
import { readyPod as readyPodIn, startLocalCluster, type LocalCluster } from "../envtest/localCluster.ts";

const log = process.env["ENVTEST_LOG"] !== undefined ? (l: string) => console.error(l) : undefined;
const NS = "node-loss";
const NODES = { "node-1": "192.0.2.21", "node-2": "192.0.2.22", "node-3": "192.0.2.23", "node-4": "192.0.2.24" } as const;
const ipOf = (node: string): string => NODES[node as keyof typeof NODES];
const WAIT = { timeoutMs: 180_000, intervalMs: 500 };
const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1`;
/** The bound the issue asks for: a lost replica runs elsewhere within this time. */
const RECOVERY_BOUND_MS = 120_000;

describe("node-loss recovery on the real control plane", { timeout: 900_000 }, () => {
  let cluster: LocalCluster;
  let kube: KubeClient;

  before(async () => {
    const nodes = Object.fromEntries(Object.entries(NODES).map(([name, ip]) => [name, [{ type: "InternalIP", address: ip }] as const]));
    cluster = await startLocalCluster({ nodes, preset: "none", log, roleLogFile: process.env["NODE_LOSS_ROLE_LOG"] });
    kube = cluster.kube;
    await createNamespace(kube, NS);
    const listenerClass = (name: string, spec: object) =>
      kube.create(`${LISTENERS}/listenerclasses`, { apiVersion: LISTENER_API_VERSION, kind: "ListenerClass", metadata: { name }, spec });
    await listenerClass("recover", { serviceType: "NodePort", pinnedNodePorts: true, pinnedNodeLossRecovery: true });
    await listenerClass("manual", { serviceType: "NodePort", pinnedNodePorts: true });
    await listenerClass("graceful", { serviceType: "NodePort", pinnedNodePorts: true, pinnedNodeLossRecovery: true, pinnedNodeLossGracePeriod: "20s" });
  });

  after(async () => {
    await cluster?.stop();
  });

  const readyPod = (name: string, notUid?: string) => readyPodIn(kube, NS, name, notUid, WAIT);
  const pvc = (name: string) => kube.getOrUndefined(`/api/v1/namespaces/${NS}/persistentvolumeclaims/${name}`);
  const pv = (name: string) => kube.getOrUndefined(`/api/v1/persistentvolumes/${name}`);
  const listener = (name: string) => kube.get(`${LISTENERS}/namespaces/${NS}/listeners/${name}`);
  const pinnedNodeOf = (volume: KubeObject): string =>
    (volume.spec as { nodeAffinity: { required: { nodeSelectorTerms: Array<{ matchExpressions: Array<{ values: string[] }> }> } } })
      .nodeAffinity.required.nodeSelectorTerms[0]!.matchExpressions[0]!.values[0]!;
  const nodeOf = (pod: KubeObject): string => String(pod.spec?.["nodeName"]);
  const addressesOf = (l: KubeObject): string[] =>
    ((l.status?.["ingressAddresses"] ?? []) as Array<{ address: string }>).map((a) => a.address);
  const nodePortsOf = (l: KubeObject): unknown => l.status?.["nodePorts"];

  /** The address file a reader of the Pod's listener volume sees. */
  const publishedAddress = (pod: KubeObject): string => {
    for (const kubelet of cluster.kubelets) {
      const volume = kubelet.published.get(pod.metadata.uid!)?.find((v) => v.volumeName === "listener");
      if (volume !== undefined) return readFileSync(join(volume.targetPath, "default-address", "address"), "utf8");
    }
    throw new Error(`the listener volume of ${pod.metadata.name} is not published`);
  };

  /** Events about objects named `name` (any uid), by reason. */
  const eventsAbout = async (kind: string, name: string) => {
    const list = await kube.list<KubeObject>(`/apis/events.k8s.io/v1/namespaces/${NS}/events`);
    return list.items.filter((e) => {
      const regarding = e["regarding"] as { kind: string; name: string };
      return regarding.kind === kind && regarding.name === name;
    }).map((e) => ({ reason: String(e["reason"]), note: String(e["note"]), type: String(e["type"]) }));
  };

  const withNodeSelector = (object: ReturnType<typeof statefulSet>, selector: Record<string, string>) => {
    (object.spec.template.spec as Record<string, unknown>)["nodeSelector"] = selector;
    return object;
  };

  const withPreferredNode = (object: ReturnType<typeof statefulSet>, node: string) => {
    object.spec.template.spec.affinity = {
      ...object.spec.template.spec.affinity,
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{
          weight: 100,
          preference: { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [node] }] }
        }]
      }
    } as typeof object.spec.template.spec.affinity;
    return object;
  };

  test("a deleted Node: with recovery on the replica moves with its Listener kept; with it off nothing is touched and an Event says what to do", async () => {
    await kube.create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, statefulSet("auto", NS, "recover", 2));
    const before0 = await readyPod("auto-0");
    await readyPod("auto-1");
    const lost = nodeOf(before0);
    const claimBefore = (await pvc("listener-auto-0"))!;
    const volumeBefore = claimBefore.spec?.["volumeName"] as string;
    assert.equal(pinnedNodeOf((await pv(volumeBefore))!), lost);
    const listenerBefore = await eventually("Listener listener-auto-0 addressed", async () => {
      const l = await listener("listener-auto-0");
      return addressesOf(l).length > 0 ? l : undefined;
    }, WAIT);
    assert.deepEqual(addressesOf(listenerBefore), [ipOf(lost)]);
    assert.equal(publishedAddress(before0), ipOf(lost));

    // Recovery off: a replica pinned to the same Node.
    await kube.create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, withNodeSelector(statefulSet("manual", NS, "manual", 1), { "kubernetes.io/hostname": lost }));
    await readyPod("manual-0");
    const manualClaim = (await pvc("listener-manual-0"))!;
    const manualVolume = manualClaim.spec?.["volumeName"] as string;

    const deletedAt = Date.now();
    await kube.delete(`/api/v1/nodes/${lost}`);

    const after0 = await readyPod("auto-0", before0.metadata.uid);
    const recoveredMs = Date.now() - deletedAt;
    log?.(`replica moved from ${lost} to ${nodeOf(after0)} in ${recoveredMs} ms`);
    assert.ok(recoveredMs < RECOVERY_BOUND_MS, `recovered in ${recoveredMs} ms`);
    const moved = nodeOf(after0);
    assert.notEqual(moved, lost);
    const claimAfter = (await pvc("listener-auto-0"))!;
    assert.notEqual(claimAfter.metadata.uid, claimBefore.metadata.uid, "the StatefulSet recreated the PVC");
    assert.equal(pinnedNodeOf((await pv(claimAfter.spec?.["volumeName"] as string))!), moved);
    await eventually("the old PersistentVolume is gone", async () => (await pv(volumeBefore)) === undefined, WAIT);
    assert.equal(publishedAddress(after0), ipOf(moved), "the volume of the new Pod has the new node's address");
    const listenerAfter = await eventually("Listener listener-auto-0 on the new node", async () => {
      const l = await listener("listener-auto-0");
      return addressesOf(l).join() === ipOf(moved) ? l : undefined;
    }, WAIT);
    assert.equal(listenerAfter.metadata.uid, listenerBefore.metadata.uid, "the per-volume Listener was kept");
    assert.deepEqual(nodePortsOf(listenerAfter), nodePortsOf(listenerBefore), "and with it its node ports");

    const claimEvents = (await eventsAbout("PersistentVolumeClaim", "listener-auto-0")).map((e) => e.reason);
    for (const reason of ["PinnedNodeLost", "ListenerKept", "PinnedClaimDeleted", "PinnedVolumeDeleted"]) {
      assert.ok(claimEvents.includes(reason), `Event ${reason} on the PVC (got ${claimEvents.join(", ")})`);
    }
    const podEvents = (await eventsAbout("Pod", "auto-0")).map((e) => e.reason);
    for (const reason of ["PinnedNodeLost", "StrandedPodDeleted"]) {
      assert.ok(podEvents.includes(reason), `Event ${reason} on the Pod (got ${podEvents.join(", ")})`);
    }

    // Recovery off: untouched, and told what to do.
    const manualEvents = await eventually("PinnedNodeLost on the manual PVC", async () => {
      const events = await eventsAbout("PersistentVolumeClaim", "listener-manual-0");
      return events.some((e) => e.reason === "PinnedNodeLost") ? events : undefined;
    }, WAIT);
    const lostEvent = manualEvents.find((e) => e.reason === "PinnedNodeLost")!;
    assert.equal(lostEvent.type, "Warning");
    assert.match(lostEvent.note, new RegExp(`Node ${lost} was deleted; .*delete PVC ${NS}/listener-manual-0 and its Pod .*set spec.pinnedNodeLossRecovery: true on ListenerClass manual`));
    const releaseSteps = ["ListenerKept", "PinnedClaimDeleted", "StrandedPodDeleted", "PinnedVolumeDeleted"];
    assert.deepEqual(manualEvents.filter((e) => releaseSteps.includes(e.reason)), [], "no release step was taken");
    assert.equal((await pvc("listener-manual-0"))?.metadata.uid, manualClaim.metadata.uid);
    assert.equal((await pv(manualVolume))?.metadata.deletionTimestamp, undefined);
    assert.equal(nodeOf(await kube.get(`/api/v1/namespaces/${NS}/pods/manual-0`)), lost);
  });

  test("a NotReady Node is left alone within the grace period and released past it", async () => {
    const live = (await kube.list<KubeObject>("/api/v1/nodes")).items.map((n) => n.metadata.name!);
    const target = live.sort()[live.length - 1]!;
    await kube.create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, withPreferredNode(statefulSet("slow", NS, "graceful", 1), target));
    const before0 = await readyPod("slow-0");
    assert.equal(nodeOf(before0), target);
    const claimBefore = (await pvc("listener-slow-0"))!;
    const volumeBefore = claimBefore.spec?.["volumeName"] as string;

    // What the node lifecycle controller does when heartbeats stop: Ready Unknown, and a NoSchedule taint.
    const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    const node = await kube.get(`/api/v1/nodes/${target}`);
    const conditions = ((node.status?.["conditions"] ?? []) as Array<Record<string, string>>).map((c) =>
      c["type"] === "Ready" ? { ...c, status: "Unknown", reason: "NodeStatusUnknown", lastTransitionTime: now } : c);
    await kube.patch(`/api/v1/nodes/${target}/status`, { status: { conditions } }, "strategic");
    await kube.patch(`/api/v1/nodes/${target}`, { spec: { taints: [{ key: "node.kubernetes.io/unreachable", effect: "NoSchedule" }] } }, "merge");
    const notReadyAt = Date.now();

    await new Promise((resolve) => setTimeout(resolve, 10_000));
    assert.equal((await pvc("listener-slow-0"))?.metadata.uid, claimBefore.metadata.uid, "within the grace period the PVC stays");
    assert.equal((await pv(volumeBefore))?.metadata.deletionTimestamp, undefined, "and so does the PV");
    assert.equal((await kube.get(`/api/v1/namespaces/${NS}/pods/slow-0`)).metadata.uid, before0.metadata.uid, "and the Pod");

    const after0 = await readyPod("slow-0", before0.metadata.uid);
    const elapsed = Date.now() - notReadyAt;
    assert.ok(elapsed >= 20_000, `released only after the grace period (${elapsed} ms)`);
    assert.ok(elapsed < 20_000 + RECOVERY_BOUND_MS, `recovered in ${elapsed} ms`);
    assert.notEqual(nodeOf(after0), target);
    assert.equal(publishedAddress(after0), ipOf(nodeOf(after0)));
    const lostEvent = (await eventsAbout("PersistentVolumeClaim", "listener-slow-0")).find((e) => e.reason === "PinnedNodeLost");
    assert.match(lostEvent?.note ?? "", new RegExp(`Node ${target} has not been Ready since .*longer than the grace period 20s`));
  });
});
