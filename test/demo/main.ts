/**
 * `npm run demo`: the demos from a checkout.
 *
 *   npm run demo                    the in-memory story (what `listener-operator demo` ships)
 *   npm run demo -- --cluster       the same story on a real local control plane (test/envtest/)
 *   npm run demo -- --real-nodes    on real kubelets and containerd with the chart-installed image (root; test/realnodes/)
 *   --verbose                       the roles' logs on stderr instead of a file
 *
 * The local clusters are test tools (built from the Go module proxy, run as root), so the
 * demos on them live here beside them: nothing of test/ goes into the bundle or the image
 * (test/unit/architecture.test.ts).
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { parseArgs } from "node:util"
import { demoLogFile, runMemoryDemoOnStdout } from "../../demo/memoryDemo.ts"

const USAGE = "usage: npm run demo [-- --cluster | --real-nodes] [--verbose]"

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        cluster: { type: "boolean", default: false },
        "real-nodes": { type: "boolean", default: false },
        verbose: { type: "boolean", default: false }
      },
      strict: true
    })
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`)
    return process.exit(2)
  }
})()
const values = parsed.values

const logs = demoLogFile(values.verbose)
const demo: Effect.Effect<void, unknown> = values["real-nodes"]
  ? Effect.flatMap(Effect.promise(() => import("./realNodesDemo.ts")), (module) => module.runRealNodesDemo)
  : values.cluster
  ? Effect.flatMap(Effect.promise(() => import("./clusterDemo.ts")), (module) => module.runDemo({ logs }))
  : runMemoryDemoOnStdout(logs)

NodeRuntime.runMain(demo)
