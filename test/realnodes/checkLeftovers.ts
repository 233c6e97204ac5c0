// Final check of an end-to-end run: no run of a dead owner may need sweeping (the suite
// cleans up after itself), and nothing of any finished run is left on the machine —
// process, mount, network namespace, interface, host iptables rule, Pod cgroup.
// Usage: node --import tsx test/realnodes/checkLeftovers.ts   (exit 1 if anything was found)
import { leftovers, sweepDeadRuns } from "./runs.ts";

const swept = await sweepDeadRuns();
for (const run of swept) console.error(`realnodes: swept run ${run.runId} of a dead owner (${run.owner}) in ${run.runDir}`);
const found = leftovers();
for (const item of found) console.error(`realnodes: leftover ${item}`);
if (swept.length === 0 && found.length === 0) console.log("realnodes: no leftovers");
else process.exitCode = 1;
