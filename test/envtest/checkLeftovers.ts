// Final check of a test run: no process of an envtest binary may be left behind.
// Usage: node --import tsx test/envtest/checkLeftovers.ts   (exit 1 and kill them if any)
import { killLeftovers, leftoverProcesses } from "./processes.ts";

const found = await leftoverProcesses();
if (found.length === 0) {
  console.log("envtest: no leftover processes");
} else {
  console.error(`envtest: ${found.length} leftover process(es):\n${found.join("\n")}`);
  await killLeftovers();
  process.exitCode = 1;
}
