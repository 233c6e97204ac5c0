// The real control plane (test/envtest): etcd + kube-apiserver + kube-controller-manager +
// kube-scheduler built from the Go module proxy, on loopback.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { envtestSourceDir } from "../envtest/binDir.ts";
import { leftoverProcessDetails, leftoverProcesses, startControlPlane, type ControlPlane } from "../envtest/controlPlane.ts";
import { createFakeNode } from "../envtest/fakeNodes.ts";
import { createNamespace, eventually, isNotFound, type KubeObject } from "../envtest/kubeClient.ts";
import { portIsFree } from "../envtest/ports.ts";

const log = process.env["ENVTEST_LOG"] !== undefined ? (l: string) => console.error(l) : undefined;

/** Ports a plane's processes listen on, from their command lines. */
async function planePorts(): Promise<{ pids: number[]; ports: number[] }> {
  const mine = (await leftoverProcessDetails()).filter((l) => l.reason.startsWith("started by this process"));
  const ports = new Set<number>();
  for (const l of mine) {
    for (const m of l.cmdline.matchAll(/(?:127\.0\.0\.1:|--secure-port=)(\d+)/g)) ports.add(Number(m[1]));
  }
  return { pids: mine.map((l) => l.pid), ports: [...ports] };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("envtest control plane with controller manager and scheduler", { timeout: 600_000 }, () => {
  let plane: ControlPlane;
  before(async () => {
    plane = await startControlPlane({ controllerManager: true, scheduler: true, log });
  });
  after(async () => {
    await plane?.stop();
  });

  test("/version reports the stamped Kubernetes version", async () => {
    const version = await plane.kube.get<{ gitVersion: string; major: string; minor: string }>("/version");
    assert.equal(version.gitVersion, "v1.36.1");
    assert.equal(version.major, "1");
    assert.equal(version.minor, "36");
    const kubectl = await plane.kubectl(["version", "-o", "json"]);
    assert.equal(kubectl.code, 0, kubectl.stderr);
    const parsed = JSON.parse(kubectl.stdout) as { clientVersion: { gitVersion: string }; serverVersion: { gitVersion: string } };
    assert.equal(parsed.clientVersion.gitVersion, "v1.36.1");
    assert.equal(parsed.serverVersion.gitVersion, "v1.36.1");
  });

  test("kubeconfig names cluster, user and context envtest and points at loopback", () => {
    assert.match(plane.server, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(plane.kubeconfigYaml, /current-context: envtest/);
    assert.ok(existsSync(plane.kubeconfigPath));
    assert.ok(plane.kubeconfigPath.startsWith(plane.dir));
  });

  test("namespace and ConfigMap round-trip through kubectl", async () => {
    const created = await plane.kubectl(["create", "namespace", "via-kubectl"]);
    assert.equal(created.code, 0, created.stderr);
    const applied = await plane.kubectl(
      ["apply", "-f", "-"],
      JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm", namespace: "via-kubectl" }, data: { key: "value" } }),
    );
    assert.equal(applied.code, 0, applied.stderr);
    const got = await plane.kubectl(["get", "configmap", "cm", "-n", "via-kubectl", "-o", "jsonpath={.data.key}"]);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, "value");
    // And the API sees what kubectl wrote.
    const cm = await plane.kube.get<KubeObject>("/api/v1/namespaces/via-kubectl/configmaps/cm");
    assert.deepEqual(cm["data"], { key: "value" });
    const missing = await plane.kubectl(["get", "configmap", "nope", "-n", "via-kubectl"]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /NotFound|not found/);
  });

  test("namespace and ConfigMap round-trip through the API", async () => {
    await createNamespace(plane.kube, "via-api");
    const cm = await plane.kube.create<KubeObject>("/api/v1/namespaces/via-api/configmaps", {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "cm" },
      data: { a: "1" },
    });
    assert.ok(cm.metadata.uid);
    const updated = await plane.kube.patch<KubeObject>("/api/v1/namespaces/via-api/configmaps/cm", { data: { a: "2" } });
    assert.deepEqual(updated["data"], { a: "2" });
    const listed = await plane.kube.list<KubeObject>("/api/v1/namespaces/via-api/configmaps", { fieldSelector: "metadata.name=cm" });
    assert.equal(listed.items.length, 1);
    const kubectlView = await plane.kubectl(["get", "configmap", "cm", "-n", "via-api", "-o", "jsonpath={.data.a}"]);
    assert.equal(kubectlView.stdout, "2");
    await plane.kube.delete("/api/v1/namespaces/via-api/configmaps/cm");
    await assert.rejects(plane.kube.get("/api/v1/namespaces/via-api/configmaps/cm"), (e: unknown) => isNotFound(e));
  });

  test("the garbage collector deletes a ConfigMap after its owner is deleted", async () => {
    await createNamespace(plane.kube, "gc");
    const owner = await plane.kube.create<KubeObject>("/api/v1/namespaces/gc/configmaps", {
      metadata: { name: "owner" },
      data: {},
    });
    await plane.kube.create("/api/v1/namespaces/gc/configmaps", {
      metadata: {
        name: "owned",
        ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata.uid }],
      },
      data: {},
    });
    await plane.kube.delete("/api/v1/namespaces/gc/configmaps/owner");
    await eventually(
      "owned ConfigMap to be garbage collected",
      async () => (await plane.kube.getOrUndefined("/api/v1/namespaces/gc/configmaps/owned")) === undefined,
      { timeoutMs: 120_000 },
    );
  });

  test("the scheduler binds a Pod to a fake node", async () => {
    await createFakeNode(plane.kube, {
      name: "sched-node",
      addresses: [{ type: "InternalIP", address: "192.0.2.10" }],
      labels: { "example.com/pool": "a" },
    });
    const node = await plane.kube.get<KubeObject>("/api/v1/nodes/sched-node");
    assert.equal((node.spec?.taints ?? []).length, 0, "fake node has no taints");
    assert.equal(node.status.conditions.find((c: { type: string }) => c.type === "Ready")?.status, "True");
    assert.deepEqual(node.status.addresses, [{ type: "InternalIP", address: "192.0.2.10" }]);
    await createNamespace(plane.kube, "sched");
    await plane.kube.create("/api/v1/namespaces/sched/pods", {
      metadata: { name: "p" },
      spec: { nodeSelector: { "example.com/pool": "a" }, containers: [{ name: "c", image: "registry.invalid/none" }] },
    });
    const bound = await eventually(
      "pod to be scheduled",
      async () => {
        const pod = await plane.kube.get<KubeObject>("/api/v1/namespaces/sched/pods/p");
        return pod.spec?.nodeName === "sched-node" ? pod : undefined;
      },
      { timeoutMs: 120_000 },
    );
    assert.equal(bound.status?.conditions?.find((c: { type: string }) => c.type === "PodScheduled")?.status, "True");
    // ServiceAccount admission is on with the controller manager.
    assert.equal(bound.spec?.serviceAccountName, "default");
  });

  test("GET /metrics as admin", async () => {
    const text = await plane.metrics();
    assert.match(text, /^apiserver_request_total\{/m);
  });
});

describe("envtest lifecycle", { timeout: 600_000 }, () => {
  test("apiserver+etcd start, stop() leaves no process, no port and no dir", async () => {
    const t0 = performance.now();
    const plane = await startControlPlane({ log });
    const startMs = performance.now() - t0;
    console.log(`# envtest: apiserver+etcd ready in ${Math.round(plane.apiserverReadyMs)} ms (startControlPlane returned after ${Math.round(startMs)} ms)`);
    const ns = await plane.kube.get<KubeObject>("/api/v1/namespaces/default");
    assert.equal(ns.metadata.name, "default");
    const { pids, ports } = await planePorts();
    assert.equal(pids.length, 2, "etcd and kube-apiserver are tracked");
    assert.ok(ports.includes(Number(new URL(plane.server).port)));
    for (const port of ports) assert.equal(await portIsFree(port), false, `port ${port} in use while running`);
    await plane.stop();
    await plane.stop(); // idempotent
    assert.deepEqual(await leftoverProcesses(), []);
    for (const pid of pids) assert.equal(alive(pid), false, `pid ${pid} gone`);
    for (const port of ports) assert.equal(await portIsFree(port), true, `port ${port} freed`);
    assert.equal(existsSync(plane.dir), false, "temp dir removed");
    // Generous bound for a shared 2-core machine; the target (~10 s) is reported above.
    assert.ok(plane.apiserverReadyMs < 60_000, `apiserver ready in ${plane.apiserverReadyMs} ms`);
  });

  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    test(`when the owning process gets ${signal}, its control plane goes away`, async () => {
      const child = spawn(process.execPath, ["--import", "tsx", join(envtestSourceDir, "planeChild.ts")], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const line = await new Promise<string>((resolveLine, reject) => {
        let buf = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => {
          buf += d;
          const nl = buf.indexOf("\n");
          if (nl >= 0) resolveLine(buf.slice(0, nl));
        });
        child.on("exit", (code) => reject(new Error(`child exited early with ${code}`)));
      });
      const info = JSON.parse(line) as { pids: number[]; dir: string; server: string };
      assert.equal(info.pids.length, 2);
      for (const pid of info.pids) assert.ok(alive(pid));
      const exited = new Promise((r) => child.on("exit", r));
      child.kill(signal);
      await exited;
      // SIGTERM: the exit hook kills at once. SIGKILL: the watchdogs notice within ~1 s.
      await eventually("plane processes to die", async () => info.pids.every((pid) => !alive(pid)), { timeoutMs: 15_000 });
      await eventually("apiserver port to be freed", () => portIsFree(Number(new URL(info.server).port)), { timeoutMs: 15_000 });
      if (signal === "SIGTERM") assert.equal(existsSync(info.dir), false, "temp dir removed by the exit hook");
      else rmSync(info.dir, { recursive: true, force: true }); // nobody could clean up after SIGKILL
      assert.deepEqual(
        (await leftoverProcessDetails()).filter((l) => info.pids.includes(l.pid)),
        [],
      );
    });
  }

  test("no envtest process is left behind by this file", async () => {
    assert.deepEqual(await leftoverProcesses(), []);
  });
});
