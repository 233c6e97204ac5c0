// csi-sanity (kubernetes-csi/csi-test) against our controller and node sockets, served by
// the operator's roles in this process over the real API server. Specs that cannot apply
// to this driver are skipped by name; docs/csi-conformance.md lists each one and why.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { crdManifests } from "../../k8s/crds.ts";
import { binary } from "../envtest/binDir.ts";
import { startControlPlane, type ControlPlane } from "../envtest/controlPlane.ts";
import { startRoles, type Roles } from "../envtest/localCluster.ts";

const log = process.env["ENVTEST_LOG"] !== undefined ? (l: string) => console.error(l) : undefined;

/**
 * Skipped specs (full names as csi-sanity prints them). Keep in sync with
 * docs/csi-conformance.md. Every one of them needs a published volume, which needs the pod
 * information (podInfoOnMount) and a PV that csi-sanity cannot provide.
 */
export const SKIPPED_SPECS = [
  "Node Service should work",
  "Node Service should be idempotent",
  "Node Service NodeUnpublishVolume should remove target path",
  "Controller Service [Controller Server] ValidateVolumeCapabilities should return appropriate values (no optional values added)",
] as const;

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// Ginkgo matches -skip against the spec's full text, but not with ^…$ anchors around it:
// the names are specific enough unanchored.
const skipPattern = SKIPPED_SPECS.map(escapeRegex).join("|");

interface Run {
  readonly code: number | null;
  readonly output: string;
}

const runSanity = (args: readonly string[]): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(binary("csi-sanity"), args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      log?.(chunk.toString("utf8").trimEnd());
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });

describe("csi-sanity against the controller and node sockets", { timeout: 900_000 }, () => {
  let plane: ControlPlane;
  let roles: Roles | undefined;
  let dir: string;
  let common: string[];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "csi-sanity-"));
    plane = await startControlPlane({ log });
    for (const crd of crdManifests()) await plane.kube.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    const controllerSocket = join(dir, "controller.sock");
    const nodeSocket = join(dir, "node.sock");
    roles = await startRoles({ kubeconfigPath: plane.kubeconfigPath, controllerSocket, nodeSockets: { "node-1": nodeSocket } });
    common = [
      `--csi.endpoint=unix://${nodeSocket}`,
      `--csi.controllerendpoint=unix://${controllerSocket}`,
      `--csi.mountdir=${join(dir, "mnt")}`,
      `--csi.stagingdir=${join(dir, "staging")}`,
      "--csi.testvolumesize=1048576",
    ];
  });

  after(async () => {
    await roles?.stop().catch(() => undefined);
    await plane?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  test("every skipped spec exists (the skip list names real specs)", async () => {
    const dry = await runSanity([...common, "-ginkgo.dry-run", "-ginkgo.v", "-ginkgo.no-color"]);
    // The verbose dry run prints each spec's full name on a line of its own.
    const names = new Set(dry.output.split("\n").map((line) => line.trim()));
    assert.ok(names.has("Identity Service GetPluginInfo should return appropriate information"), dry.output.slice(-2000));
    for (const name of SKIPPED_SPECS) assert.ok(names.has(name), `csi-sanity has no spec named ${JSON.stringify(name)}`);
  });

  test("all applicable specs pass", async () => {
    const run = await runSanity([...common, `-ginkgo.skip=${skipPattern}`, "-ginkgo.no-color"]);
    const summary = /Ran (\d+) of (\d+) Specs/.exec(run.output);
    assert.ok(summary !== null, `no csi-sanity summary in its output:\n${run.output.slice(-4000)}`);
    assert.equal(run.code, 0, `csi-sanity failed:\n${run.output.slice(-8000)}`);
    assert.match(run.output, /SUCCESS!/);
    // Identity (3) + controller (capabilities, CreateVolume, DeleteVolume, Validate) + node negatives.
    assert.ok(Number(summary[1]) >= 20, `only ${summary[1]} specs ran`);
  });
});
