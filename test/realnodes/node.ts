// One real node: a network namespace (network.ts) and a private mount namespace, with
// its own containerd, kubelet and kube-proxy started inside both. Every process goes
// through spawnTracked (process groups, watchdogs); what detaches from them (containerd's
// shims and the containers) is found through the mount namespace at teardown.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ControlPlane } from "../envtest/controlPlane.ts";
import { spawnTracked } from "../envtest/processes.ts";
import type { TrackedProcess } from "../envtest/processes.ts";
import { realNodesBinary } from "./binDir.ts";
import { killNamespaceProcesses, mountNamespaceId } from "./namespaceProcesses.ts";
import { POD_CLUSTER_CIDR, NODE_SUBNET_PREFIX, must, nodeAddress, podCidr, run } from "./network.ts";
import type { CommandResult } from "./network.ts";
import { cniConfig, containerdConfig, kubeletConfig, kubeProxyConfig, NODE_PATHS, PRIVATE_PATHS } from "./nodeConfig.ts";

export interface RealNode {
  readonly name: string;
  /** The node's address on the test bridge (its InternalIP). */
  readonly ip: string;
  /** Host directory holding this node's private directories, configs and logs. */
  readonly hostDir: string;
  /** Host path of the directory the node sees as /var/lib/kubelet. */
  readonly kubeletRootDir: string;
  /** Stop the kubelet (SIGTERM) and start it again; containers keep running. */
  restartKubelet(): Promise<void>;
  /** Run a command inside the node's network and mount namespaces; never throws for a non-zero exit. */
  exec(command: readonly string[]): Promise<CommandResult>;
  /**
   * Start a long-running process inside the node's network and mount namespaces (as a
   * DaemonSet's host-path container would see the node); stopped with the node.
   */
  spawn(component: string, command: string, args: readonly string[], env?: NodeJS.ProcessEnv): TrackedProcess;
  /** The node's network namespace (under /run/netns) and mount-namespace file, for nsenter. */
  readonly namespaces: { readonly net: string; readonly mount: string };
  /** Import OCI archives into the node's containerd (namespace k8s.io). */
  importImages(archives: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

export interface NodeOptions {
  readonly runDir: string;
  /** Directory (privately mounted on itself) holding the mount-namespace files. */
  readonly nsDir: string;
  readonly index: number;
  readonly name: string;
  readonly netns: string;
  readonly plane: ControlPlane;
  readonly sandboxImage: string;
  readonly log: (line: string) => void;
}

const hostDirFor = (path: string): string => path.slice(1).replaceAll("/", "_");

export async function startNode(options: NodeOptions): Promise<RealNode> {
  const { name, netns, plane } = options;
  const ip = nodeAddress(options.index);
  const hostDir = join(options.runDir, name);
  const nsFile = join(options.nsDir, name);
  const configDir = join(hostDir, "config");
  const logDir = join(hostDir, "logs");
  for (const dir of [configDir, logDir, ...PRIVATE_PATHS.map((p) => join(hostDir, hostDirFor(p)))]) mkdirSync(dir, { recursive: true });
  // Mount points must exist on the host; they stay empty there (everything is mounted in the namespace).
  for (const path of PRIVATE_PATHS) if (!existsSync(path)) mkdirSync(path, { recursive: true });

  const paths = {
    containerd: join(configDir, "containerd.toml"),
    kubelet: join(configDir, "kubelet.yaml"),
    kubeProxy: join(configDir, "kube-proxy.yaml"),
    kubeconfig: join(configDir, "kubeconfig"),
  };
  writeFileSync(paths.containerd, containerdConfig({ sandboxImage: options.sandboxImage }));
  writeFileSync(paths.kubelet, kubeletConfig({ nodeIp: ip, clientCaFile: join(plane.dir, "pki", "client-ca.crt") }));
  writeFileSync(paths.kubeconfig, plane.kubeconfigYaml, { mode: 0o600 });
  writeFileSync(paths.kubeProxy, kubeProxyConfig({ kubeconfig: paths.kubeconfig, nodeName: name, clusterCidr: POD_CLUSTER_CIDR, nodeSubnet: `${NODE_SUBNET_PREFIX}.0/24` }));
  writeFileSync(join(hostDir, hostDirFor(NODE_PATHS.cniConfDir), "10-bridge.conflist"), cniConfig({ podCidr: podCidr(options.index) }));

  // The mount namespace: created once, held by the bind mount of nsFile, every private
  // path bound from this node's host directory. The binds are shared mounts inside the
  // namespace, as / is on a systemd host: the chart mounts the pods dir with HostToContainer
  // propagation, which runc refuses on a private mount. The namespace itself was created
  // private, so nothing propagates to the host.
  writeFileSync(nsFile, "");
  const binds = PRIVATE_PATHS.map((p) => `mount --bind '${join(hostDir, hostDirFor(p))}' '${p}' && mount --make-rshared '${p}'`).join(" && ");
  await must("unshare", [`--mount=${nsFile}`, "--propagation", "private", "sh", "-c", binds]);
  const mountNs = mountNamespaceId(nsFile);
  const enter = ["--mount=" + nsFile, `--net=/run/netns/${netns}`, "--"];

  const processes: TrackedProcess[] = [];
  const start = (component: string, command: string, args: readonly string[], env?: NodeJS.ProcessEnv): TrackedProcess => {
    const proc = spawnTracked({
      name: `${name}/${component}`,
      command: "nsenter",
      args: [...enter, command, ...args],
      logPath: join(logDir, `${component}.log`),
      ...(env !== undefined ? { env } : {}),
    });
    processes.push(proc);
    return proc;
  };
  const exec = (command: readonly string[]) => run("nsenter", [...enter, ...command]);

  const waitFor = async (what: string, proc: TrackedProcess, ready: () => Promise<boolean>, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await ready())) {
      if (!proc.running()) throw new Error(`${name}: ${proc.name} exited before ${what}; last log lines:\n${proc.logTail(30)}`);
      if (Date.now() > deadline) throw new Error(`${name}: ${what} not ready after ${timeoutMs} ms; last log lines:\n${proc.logTail(30)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const ctr = (args: readonly string[]) => exec(["ctr", "--address", NODE_PATHS.containerdSocket, "--namespace", "k8s.io", ...args]);
  const containerd = start("containerd", "containerd", ["--config", paths.containerd]);
  await waitFor("containerd", containerd, async () => (await ctr(["version"])).code === 0);

  const kubeletArgs = [
    `--config=${paths.kubelet}`,
    `--kubeconfig=${paths.kubeconfig}`,
    `--hostname-override=${name}`,
    `--node-ip=${ip}`,
    `--root-dir=${NODE_PATHS.kubeletRoot}`,
    `--cert-dir=${NODE_PATHS.kubeletRoot}/pki`,
    "--v=2",
  ];
  let kubelet = start("kubelet", realNodesBinary("kubelet"), kubeletArgs);
  const kubeletHealthy = async () => (await exec(["busybox", "wget", "-q", "-O", "-", "http://127.0.0.1:10248/healthz"])).stdout === "ok";
  await waitFor("kubelet /healthz", kubelet, kubeletHealthy, 120_000);
  const kubeProxy = start("kube-proxy", realNodesBinary("kube-proxy"), [`--config=${paths.kubeProxy}`, "--v=2"]);
  await waitFor("kube-proxy /healthz", kubeProxy, async () =>
    (await exec(["busybox", "wget", "-q", "-O", "-", "http://127.0.0.1:10256/healthz"])).code === 0, 60_000);
  options.log(`node ${name} up at ${ip} (netns ${netns})`);

  let stopped = false;
  return {
    name,
    ip,
    hostDir,
    kubeletRootDir: join(hostDir, hostDirFor(NODE_PATHS.kubeletRoot)),
    exec,
    spawn: start,
    namespaces: { net: `/run/netns/${netns}`, mount: nsFile },
    restartKubelet: async () => {
      await kubelet.stop(10_000);
      processes.splice(processes.indexOf(kubelet), 1);
      kubelet = start("kubelet", realNodesBinary("kubelet"), kubeletArgs);
      await waitFor("kubelet /healthz after restart", kubelet, kubeletHealthy, 120_000);
    },
    importImages: async (archives) => {
      for (const archive of archives) {
        const result = await ctr(["images", "import", archive]);
        if (result.code !== 0) throw new Error(`${name}: ctr images import ${archive} failed: ${result.stderr}`);
      }
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      // The kubelet first (it would restart containers), then everything in the namespace.
      for (const proc of [...processes].reverse()) await proc.stop(proc === containerd ? 5000 : 3000);
      await killNamespaceProcesses(new Set([mountNs]));
      // The last reference to the namespace: its mounts (kubelet's tmpfs, netns binds) go with it.
      await run("umount", [nsFile]);
    },
  };
}
