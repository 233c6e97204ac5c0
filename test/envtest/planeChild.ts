// Test helper process: starts a control plane, prints one JSON line with its pids, temp dir
// and server, then idles until killed. Used by test/integration/envtest.test.ts to check
// that the exit hooks and the watchdogs tear everything down when the owner dies.
import { leftoverProcessDetails } from "./processes.ts";
import { startControlPlane } from "./controlPlane.ts";

const plane = await startControlPlane();
const pids = (await leftoverProcessDetails())
  .filter((l) => l.reason.startsWith("started by this process"))
  .map((l) => l.pid);
process.stdout.write(JSON.stringify({ pids, dir: plane.dir, server: plane.server }) + "\n");
setInterval(() => undefined, 1 << 30);
