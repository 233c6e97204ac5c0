// csi_plugin_operations_seconds (csi/metrics.ts): every handler call lands in the histogram
// under the sidecars' label names, with the full gRPC method and the Go name of the code the
// call ended with — success, a typed failure (status.ts), a defect, an interruption.
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { invalidRequest } from "../../../csi/errors.ts"
import { grpcCodeName, instrumentCsiService } from "../../../csi/metrics.ts"
import type { NodeService } from "../../../csi/server.ts"

const node: NodeService = {
  name: "Node",
  handlers: {
    NodePublishVolume: () => Effect.fail(invalidRequest("target_path", "must be absolute")),
    NodeUnpublishVolume: () => Effect.die(new Error("bug")),
    NodeGetCapabilities: () => Effect.succeed({ capabilities: [] }),
    NodeGetInfo: () => Effect.never
  }
}

const sample = (text: string, method: string, code: string): number | undefined => {
  const line = text.split("\n").find((l) =>
    l.startsWith("csi_plugin_operations_seconds_count{") && l.includes(`method_name="${method}"`) && l.includes(`grpc_status_code="${code}"`))
  return line === undefined ? undefined : Number(line.split(" ").at(-1))
}

test("each call is counted and timed by method and gRPC code, as the CSI sidecars name them", async () => {
  const text = await Effect.runPromise(Effect.gen(function*() {
    const handlers = instrumentCsiService(node).handlers
    yield* handlers.NodeGetCapabilities({})
    yield* handlers.NodeGetCapabilities({})
    yield* Effect.exit(handlers.NodePublishVolume({} as never))
    yield* Effect.exit(handlers.NodeUnpublishVolume({} as never))
    const hanging = yield* Effect.forkChild(handlers.NodeGetInfo({}))
    yield* Effect.yieldNow
    yield* Fiber.interrupt(hanging)
    return yield* PrometheusMetrics.format()
  }).pipe(Effect.provideService(Metric.MetricRegistry, new Map())))

  assert.equal(sample(text, "/csi.v1.Node/NodeGetCapabilities", "OK"), 2)
  assert.equal(sample(text, "/csi.v1.Node/NodePublishVolume", "InvalidArgument"), 1)
  assert.equal(sample(text, "/csi.v1.Node/NodeUnpublishVolume", "Internal"), 1)
  assert.equal(sample(text, "/csi.v1.Node/NodeGetInfo", "Canceled"), 1)
  assert.match(text, /csi_plugin_operations_seconds_bucket\{[^}]*driver_name="listeners\.stackable\.tech"[^}]*\} /u)
  assert.match(text, /csi_plugin_operations_seconds_bucket\{[^}]*le="600"[^}]*\} 2/u, "the sidecars' buckets, up to 600 s")
})

test("gRPC codes are spelled as Go's codes.Code.String()", () => {
  assert.deepEqual([0, 1, 3, 5, 9, 10, 13, 14, 16].map(grpcCodeName),
    ["OK", "Canceled", "InvalidArgument", "NotFound", "FailedPrecondition", "Aborted", "Internal", "Unavailable", "Unauthenticated"])
  assert.equal(grpcCodeName(42), "Code(42)")
})
