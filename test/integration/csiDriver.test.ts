// The CSI driver end to end on the real control plane: kube-apiserver, controller manager
// and scheduler; the real csi-provisioner sidecar (--extra-create-metadata, Topology); the
// WaitForFirstConsumer StorageClass and the CSIDriver; our controller role and two node
// plugins running in this process; and the kubelet stand-in on each of two fake nodes
// publishing volumes over the node plugins' real sockets (test/envtest/localCluster.ts).
import assert from "node:assert/strict";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { CSI_DRIVER_NAME, LISTENER_API_VERSION, STORAGE_CLASS_NAME } from "../../domain/constants.ts";
import { publishRequestShape } from "../../csi/publishRequestShape.ts";
import { connectCsi, CsiCallError } from "../envtest/csiClient.ts";
import { REAL_KUBELET_PUBLISH_SHAPE } from "../envtest/kubeletPublishShape.ts";
import { statefulSet } from "../e2e/workloads.ts";
import { createFakeNode } from "../envtest/fakeNodes.ts";
import type { Kubelet } from "../envtest/kubelet.ts";
import { createNamespace, eventually, type KubeClient, type KubeObject } from "../envtest/kubeClient.ts";
import { isPodReady, readyPod as readyPodIn, startLocalCluster, type LocalCluster } from "../envtest/localCluster.ts";

const log = process.env["ENVTEST_LOG"] !== undefined ? (l: string) => console.error(l) : undefined;
const NS = "csi-e2e";
const NODES = { "node-1": "192.0.2.11", "node-2": "192.0.2.12" } as const;
type NodeName = keyof typeof NODES;
const WAIT = { timeoutMs: 180_000, intervalMs: 500 };
const LISTENERS = `/apis/listeners.stackable.tech/v1alpha1`;

describe("CSI driver on the real control plane", { timeout: 1_500_000 }, () => {
  let cluster: LocalCluster;
  let kube: KubeClient;
  let dir: string;
  let kubelets: ReadonlyArray<Kubelet>;

  before(async () => {
    const nodes = Object.fromEntries(Object.entries(NODES).map(([name, ip]) =>
      [name, [{ type: "InternalIP", address: ip }, { type: "Hostname", address: name }] as const]));
    cluster = await startLocalCluster({ nodes, preset: "none", log });
    ({ kube, dir, kubelets } = cluster);
    await createNamespace(kube, NS);
    const listenerClass = (name: string, spec: object) =>
      kube.create(`${LISTENERS}/listenerclasses`, { apiVersion: LISTENER_API_VERSION, kind: "ListenerClass", metadata: { name }, spec });
    await listenerClass("e2e-pinned", { serviceType: "NodePort", pinnedNodePorts: true });
    await listenerClass("e2e-nodeport", { serviceType: "NodePort" });
    await listenerClass("e2e-lb", { serviceType: "LoadBalancer" });
  });

  after(async () => {
    await cluster?.stop();
  });

  // ---- helpers -----------------------------------------------------------------------

  const pod = (name: string) => kube.get(`/api/v1/namespaces/${NS}/pods/${name}`);
  const readyPod = (name: string, uidOtherThan?: string) => readyPodIn(kube, NS, name, uidOtherThan);
  const listener = (name: string) => kube.get(`${LISTENERS}/namespaces/${NS}/listeners/${name}`);

  /** The published target path of a Pod's volume, from the kubelet stand-in of its node. */
  const targetOf = (p: KubeObject, volumeName: string): string => {
    for (const kubelet of kubelets) {
      const found = kubelet.published.get(p.metadata.uid!)?.find((v) => v.volumeName === volumeName);
      if (found !== undefined) return found.targetPath;
    }
    throw new Error(`volume ${volumeName} of ${p.metadata.name} is not published`);
  };
  const defaultAddress = (target: string) => ({
    // Where default-address leads a reader, relative to the volume's tree (`addresses/<a>`).
    link: relative(dirname(realpathSync(join(target, "addresses"))), realpathSync(join(target, "default-address"))),
    address: readFileSync(join(target, "default-address", "address"), "utf8"),
    port: (name: string) => readFileSync(join(target, "default-address", "ports", name), "utf8"),
  });

  const ephemeralVolume = (annotations: Record<string, string>) => ({
    name: "listener",
    ephemeral: {
      volumeClaimTemplate: {
        metadata: { annotations },
        spec: { storageClassName: STORAGE_CLASS_NAME, accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Mi" } } },
      },
    },
  });
  const createPod = (name: string, volume: object, extra: Record<string, unknown> = {}) =>
    kube.create(`/api/v1/namespaces/${NS}/pods`, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: NS, labels: { app: name } },
      spec: {
        containers: [{ name: "app", image: "registry.invalid/app:1", ports: [{ name: "http", containerPort: 8080 }] }],
        volumes: [volume],
        ...extra,
      },
    });
  const createListener = (name: string, className: string) =>
    kube.create(`${LISTENERS}/namespaces/${NS}/listeners`, {
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      metadata: { name, namespace: NS },
      spec: { className, ports: [{ name: "http", port: 8080 }] },
    });

  /** The bound PV of a Pod's generic ephemeral volume `listener`. */
  const boundPv = async (p: KubeObject) => {
    const pvc = await eventually(`PVC of ${p.metadata.name} bound`, async () => {
      const claim = await kube.getOrUndefined(`/api/v1/namespaces/${NS}/persistentvolumeclaims/${p.metadata.name}-listener`);
      return claim?.status?.phase === "Bound" ? claim : undefined;
    }, WAIT);
    return kube.get(`/api/v1/persistentvolumes/${pvc.spec.volumeName}`);
  };

  /** NodePublishVolume as the kubelet sends it, straight to node-1's plugin, for asserting the answer. */
  const publishDirectly = async (p: KubeObject, pv: KubeObject, targetPath: string) => {
    const csi = connectCsi(cluster.nodeSocket("node-1"));
    try {
      await csi.call("Node", "NodePublishVolume", {
        volume_id: pv.spec.csi.volumeHandle,
        target_path: targetPath,
        volume_capability: { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode: "SINGLE_NODE_WRITER" } },
        readonly: false,
        volume_context: {
          ...pv.spec.csi.volumeAttributes,
          "csi.storage.k8s.io/pod.name": p.metadata.name,
          "csi.storage.k8s.io/pod.namespace": NS,
          "csi.storage.k8s.io/pod.uid": p.metadata.uid,
          "csi.storage.k8s.io/serviceAccount.name": "default",
          "csi.storage.k8s.io/ephemeral": "false",
        },
      }, 60_000);
      return undefined;
    } catch (e) {
      if (e instanceof CsiCallError) return e;
      throw e;
    } finally {
      csi.close();
    }
  };

  // ---- scenarios ---------------------------------------------------------------------

  test("StatefulSet with a pinned NodePort class: per-replica Listeners pinned to their nodes", async () => {
    await kube.create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "web", namespace: NS },
      spec: {
        serviceName: "web",
        replicas: 2,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: {
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { labelSelector: { matchLabels: { app: "web" } }, topologyKey: "kubernetes.io/hostname" },
                ],
              },
            },
            containers: [{ name: "app", image: "registry.invalid/app:1", ports: [{ name: "http", containerPort: 8080 }] }],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: "listener", annotations: { "listeners.stackable.tech/listener-class": "e2e-pinned" } },
            spec: { storageClassName: STORAGE_CLASS_NAME, accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Mi" } } },
          },
        ],
      },
    });
    const pods = [await readyPod("web-0"), await readyPod("web-1")];
    assert.notEqual(pods[0]!.spec.nodeName, pods[1]!.spec.nodeName);
    for (const p of pods) {
      const nodeName = p.spec.nodeName as NodeName;
      const claim = await kube.get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/listener-${p.metadata.name}`);
      const pv = await kube.get(`/api/v1/persistentvolumes/${claim.spec.volumeName}`);
      // Pinned: the PV's node affinity names the node the scheduler picked.
      assert.deepEqual(pv.spec.nodeAffinity.required.nodeSelectorTerms, [
        { matchExpressions: [{ key: "listeners.stackable.tech/hostname", operator: "In", values: [nodeName] }] },
      ]);
      assert.deepEqual(pv.spec.csi.volumeAttributes["listeners.stackable.tech/listener-class"], "e2e-pinned");
      assert.equal(pv.metadata.labels?.["listeners.stackable.tech/listener-name"], `listener-${p.metadata.name}`);
      const l = await eventually(`Listener listener-${p.metadata.name} addresses`, async () => {
        const live = await listener(`listener-${p.metadata.name}`);
        return live.status?.ingressAddresses?.length > 0 ? live : undefined;
      }, WAIT);
      assert.deepEqual(l.metadata.ownerReferences?.map((o) => o["name"]), [pv.metadata.name]);
      assert.deepEqual(l.status.ingressAddresses.map((a: { address: string }) => a.address), [NODES[nodeName]]);
      // The Pod's own files: its node's address and the node port.
      const files = defaultAddress(targetOf(p, "listener"));
      assert.equal(files.link, `addresses/${NODES[nodeName]}`);
      assert.equal(files.address, NODES[nodeName]);
      assert.equal(files.port("http"), String(l.status.nodePorts.http));
      assert.equal(p.metadata.labels?.[`listener.stackable.tech/mnt.${l.metadata.uid!.replaceAll("-", "")}`], l.metadata.name);
      const podListeners = await kube.get(`${LISTENERS}/namespaces/${NS}/podlisteners/pod-${p.metadata.uid}`);
      assert.equal(podListeners.spec.listeners.listener.scope, "Node");
      assert.deepEqual(podListeners.spec.listeners.listener.ingressAddresses[0].address, NODES[nodeName]);
    }

    // Deleting a Pod brings it back on the same node; the Listener lives with the PVC.
    const before0 = pods[0]!;
    const listenerUid = (await listener("listener-web-0")).metadata.uid;
    await kube.delete(`/api/v1/namespaces/${NS}/pods/web-0`);
    const again = await readyPod("web-0", before0.metadata.uid);
    assert.equal(again.spec.nodeName, before0.spec.nodeName);
    assert.equal((await listener("listener-web-0")).metadata.uid, listenerUid);
    assert.equal(defaultAddress(targetOf(again, "listener")).address, NODES[again.spec.nodeName as NodeName]);
  });

  test("the kubelet stand-in sends the NodePublishVolume requests the real kubelet sends", async () => {
    await kube.create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, statefulSet("shape", NS, "e2e-pinned", 1));
    const p = await readyPod("shape-0");
    const requests = kubelets.flatMap((k) => k.publishRequests)
      .filter((r) => r.volume_context?.["csi.storage.k8s.io/pod.uid"] === p.metadata.uid);
    assert.ok(requests.length >= 1, "the stand-in published shape-0's volume");
    const kubeletDir = cluster.kubeletDir(p.spec.nodeName);
    for (const request of requests) {
      const shape = publishRequestShape(request);
      assert.deepEqual({ ...shape, targetPathPattern: shape.targetPathPattern.replace(`${kubeletDir}/`, "<root>/") }, REAL_KUBELET_PUBLISH_SHAPE);
    }
    await kube.delete(`/apis/apps/v1/namespaces/${NS}/statefulsets/shape`);
  });

  test("generic ephemeral volume with a listener-class: its Listener comes and goes with the Pod", async () => {
    await createPod("eph", ephemeralVolume({ "listeners.stackable.tech/listener-class": "e2e-nodeport" }));
    const p = await readyPod("eph");
    const l = await listener("eph-listener");
    assert.equal(l.spec.className, "e2e-nodeport");
    assert.deepEqual(l.spec.ports, [{ name: "http", port: 8080, protocol: "TCP" }]);
    assert.equal(defaultAddress(targetOf(p, "listener")).address, NODES[p.spec.nodeName as NodeName]);
    await kube.delete(`/api/v1/namespaces/${NS}/pods/eph`);
    await eventually("Listener eph-listener garbage-collected", async () =>
      (await kube.getOrUndefined(`${LISTENERS}/namespaces/${NS}/listeners/eph-listener`)) === undefined, WAIT);
  });

  test("a shared Listener (listener-name) on two nodes: each Pod's files name its own node", async () => {
    await createListener("shared", "e2e-nodeport");
    const volume = ephemeralVolume({ "listeners.stackable.tech/listener-name": "shared" });
    await createPod("shared-a", volume, { nodeSelector: { "kubernetes.io/hostname": "node-1" } });
    await createPod("shared-b", volume, { nodeSelector: { "kubernetes.io/hostname": "node-2" } });
    const a = await readyPod("shared-a");
    const b = await readyPod("shared-b");
    assert.equal(defaultAddress(targetOf(a, "listener")).address, NODES["node-1"]);
    assert.equal(defaultAddress(targetOf(b, "listener")).address, NODES["node-2"]);
    const l = await eventually("Listener shared lists both nodes", async () => {
      const live = await listener("shared");
      const addresses = ((live.status?.ingressAddresses ?? []) as Array<{ address: string }>).map((x) => x.address).sort();
      return addresses.length === 2 ? addresses : undefined;
    }, WAIT);
    assert.deepEqual(l, [NODES["node-1"], NODES["node-2"]].sort());
  });

  test("LoadBalancer class: UNAVAILABLE until the Service has an ingress address, then published", async () => {
    await createListener("lb", "e2e-lb");
    await createPod("lb-0", ephemeralVolume({ "listeners.stackable.tech/listener-name": "lb" }));
    const p = await eventually("Pod lb-0 scheduled", async () => {
      const live = await pod("lb-0");
      return live.spec.nodeName !== undefined ? live : undefined;
    }, WAIT);
    const probeDir = join(dir, "probe-lb");
    await mkdir(probeDir, { recursive: true });
    const answer = await publishDirectly(p, await boundPv(p), join(probeDir, "mount"));
    assert.ok(answer instanceof CsiCallError, "publishing must fail while the load balancer has no address");
    assert.equal(answer.code, 14, answer.message); // UNAVAILABLE: the kubelet retries
    assert.match(answer.message, /Listener csi-e2e\/lb has no addresses yet/);
    assert.deepEqual(readdirSync(probeDir), []);
    assert.equal(isPodReady(await pod("lb-0")), false);

    await kube.patch(`/api/v1/namespaces/${NS}/services/lb/status`, { status: { loadBalancer: { ingress: [{ ip: "203.0.113.5" }] } } }, "merge");
    const ready = await readyPod("lb-0");
    const files = defaultAddress(targetOf(ready, "listener"));
    assert.equal(files.address, "203.0.113.5");
    assert.equal(files.port("http"), "8080");
  });

  test("live refresh: a changed load-balancer address reaches the running Pod's volume in place (a held directory handle sees it)", async () => {
    const ready = await readyPod("lb-0");
    const target = targetOf(ready, "listener");
    // What a container holds: the mounted directory itself, not its path.
    const handle = openSync(target, "r");
    try {
      const seen = () => readFileSync(`/proc/self/fd/${handle}/default-address/address`, "utf8");
      assert.equal(seen(), "203.0.113.5");
      await kube.patch(`/api/v1/namespaces/${NS}/services/lb/status`, { status: { loadBalancer: { ingress: [{ ip: "203.0.113.6" }] } } }, "merge");
      await eventually("the held directory shows the new address", async () => seen() === "203.0.113.6", WAIT);
      assert.equal(readFileSync(`/proc/self/fd/${handle}/addresses/203.0.113.6/ports/http`, "utf8"), "8080");
      assert.equal(existsSync(`/proc/self/fd/${handle}/addresses/203.0.113.5`), false, "the old address is gone");
    } finally {
      closeSync(handle);
    }
    const podListeners = await kube.get(`${LISTENERS}/namespaces/${NS}/podlisteners/pod-${ready.metadata.uid}`);
    assert.deepEqual((podListeners.spec as { listeners: Record<string, { ingressAddresses: Array<{ address: string }> }> }).listeners["listener"]!.ingressAddresses.map((a) => a.address), ["203.0.113.6"]);
  });

  test("a node address override (annotation) reaches the Listener status and the running Pod's volume", async () => {
    await createListener("np-override", "e2e-nodeport");
    await createPod("np-override-0", ephemeralVolume({ "listeners.stackable.tech/listener-name": "np-override" }), { nodeSelector: { "kubernetes.io/hostname": "node-2" } });
    const ready = await readyPod("np-override-0");
    const target = targetOf(ready, "listener");
    assert.equal(defaultAddress(target).address, NODES["node-2"]);
    await kube.patch("/api/v1/nodes/node-2", { metadata: { annotations: { "listeners.stackable.tech/node-address": "node-2.nat.example.com" } } }, "merge");
    await eventually("the Listener publishes the override", async () =>
      ((await listener("np-override")).status?.["ingressAddresses"] as Array<{ address: string }> | undefined)?.some((a) => a.address === "node-2.nat.example.com"), WAIT);
    await eventually("the running Pod's volume has the override", async () => defaultAddress(target).address === "node-2.nat.example.com", WAIT);
    // An unusable override is refused, named on the Listener and in an Event on the Node; the node's own address returns.
    await kube.patch("/api/v1/nodes/node-2", { metadata: { annotations: { "listeners.stackable.tech/node-address": "../etc" } } }, "merge");
    const refused = await eventually("the Listener names the refused override", async () => {
      const l = await listener("np-override");
      const ready = ((l.status?.["conditions"] ?? []) as Array<{ type: string; message: string }>).find((c) => c.type === "Ready");
      return ready?.message.includes("../etc") ? ready : undefined;
    }, WAIT);
    assert.match(refused.message, /annotation listeners.stackable.tech\/node-address of Node node-2/);
    await eventually("an InvalidNodeAddressOverride Event on the Node", async () => {
      const events = await kube.list(`/apis/events.k8s.io/v1/namespaces/default/events`);
      return events.items.some((e) => e["reason"] === "InvalidNodeAddressOverride" && (e["regarding"] as { name: string }).name === "node-2");
    }, WAIT);
    await eventually("the volume is back on the node's own address", async () => defaultAddress(target).address === NODES["node-2"], WAIT);
    await kube.patch("/api/v1/nodes/node-2", { metadata: { annotations: { "listeners.stackable.tech/node-address": null } } }, "merge");
  });

  test("hostile addresses: the API server refuses them on a Service; from a Node they are refused, named, never written", async () => {
    // A load-balancer hostname is validated by the API server itself (DNS-1123 subdomain).
    await createListener("evil-lb", "e2e-lb");
    await eventually("Service evil-lb", () => kube.getOrUndefined(`/api/v1/namespaces/${NS}/services/evil-lb`), WAIT);
    for (const hostname of ["../../x", "a/b"]) {
      await assert.rejects(
        kube.patch(`/api/v1/namespaces/${NS}/services/evil-lb/status`, { status: { loadBalancer: { ingress: [{ hostname }] } } }, "merge"),
        (e: Error) => /422|Invalid|invalid/.test(e.message),
      );
    }

    // Node addresses are not validated that way: a node whose only addresses are hostile,
    // a NodePort Listener preferring hostnames, and a Pod on that node.
    await createFakeNode(kube, { name: "node-evil", addresses: [{ type: "Hostname", address: "../../x" }, { type: "InternalIP", address: "a/b" }] });
    await kube.create(`${LISTENERS}/listenerclasses`, {
      apiVersion: LISTENER_API_VERSION,
      kind: "ListenerClass",
      metadata: { name: "e2e-nodeport-hostname" },
      spec: { serviceType: "NodePort", preferredAddressType: "Hostname" },
    });
    await createListener("evil", "e2e-nodeport-hostname");
    const pv = await kube.create("/api/v1/persistentvolumes", {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: "evil-pv" },
      spec: {
        storageClassName: STORAGE_CLASS_NAME,
        capacity: { storage: "1Mi" },
        accessModes: ["ReadWriteOnce"],
        persistentVolumeReclaimPolicy: "Retain",
        claimRef: { namespace: NS, name: "evil" },
        csi: { driver: CSI_DRIVER_NAME, volumeHandle: "evil-pv", volumeAttributes: { "listeners.stackable.tech/listener-name": "evil" } },
      },
    });
    await kube.create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "evil", namespace: NS },
      spec: { storageClassName: STORAGE_CLASS_NAME, volumeName: "evil-pv", accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Mi" } } },
    });
    const p = await createPod("evil-0", { name: "listener", persistentVolumeClaim: { claimName: "evil" } }, { nodeName: "node-evil" });
    await eventually("Listener evil has node ports", async () => (await listener("evil")).status?.nodePorts?.http !== undefined, WAIT);

    const probeDir = join(dir, "probe-evil", "deep");
    await mkdir(probeDir, { recursive: true });
    const answer = await publishDirectly(p, pv, join(probeDir, "mount"));
    assert.ok(answer instanceof CsiCallError, "publishing must not succeed with hostile addresses");
    assert.equal(answer.code, 14, answer.message); // UNAVAILABLE: the node's addresses may still be fixed
    assert.match(answer.message, /node node-evil has no address that is an IP address or DNS name \("a\/b", "\.\.\/\.\.\/x"\)/);
    assert.deepEqual(readdirSync(probeDir), []);
    assert.deepEqual(readdirSync(join(dir, "probe-evil")), ["deep"]);
    assert.equal(existsSync(join(dir, "x")), false);
    assert.equal(existsSync(join(dir, "probe-evil", "x")), false);
    assert.equal(existsSync(join(dir, "a")), false);
    // The controller does not publish them either.
    assert.deepEqual((await listener("evil")).status?.ingressAddresses ?? [], []);
  });
});
