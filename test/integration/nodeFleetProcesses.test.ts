// The node fleet with its roles in worker processes (test/envtest/nodeFleet.ts `processes`,
// fleetWorker.ts), as the scale benchmark runs it: the controller in a process of its own,
// two node roles in two more. A volume published through a worker's CSI socket gets the
// controller's addresses; a Node's new address reaches its file, seen by the worker holding
// the node role at a wall-clock time after the change; each process samples itself; and
// stopping the fleet ends every worker.
import assert from "node:assert/strict"
import { after, before, describe, test } from "node:test"
import { FLEET_CLASSES, startNodeFleet } from "../envtest/nodeFleet.ts"
import type { Fleet } from "../envtest/nodeFleet.ts"
import { wallClock } from "../envtest/fleetProbe.ts"

const log = process.env["ENVTEST_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe("node fleet in worker processes", { timeout: 300_000 }, () => {
  let fleet: Fleet | undefined

  before(async () => {
    fleet = await startNodeFleet({ nodes: 2, processes: 2, log })
    await fleet.startNodeRoles()
  })
  after(async () => {
    await fleet?.stop()
  })

  test("the controller and each node role run in their own process", async () => {
    const samples = await fleet!.samples({ gc: true })
    assert.deepEqual(samples.map((s) => [s.host, s.controller, s.nodes]), [["controller", true, 0], ["nodes-0", false, 1], ["nodes-1", false, 1]])
    assert.equal(new Set([process.pid, ...samples.map((s) => s.pid)]).size, 4, "four distinct processes")
    for (const sample of samples) {
      assert.ok(sample.heapUsed > 0 && sample.rss >= sample.heapUsed, `${sample.host}: memory ${JSON.stringify(sample)}`)
      assert.ok(sample.cpuMs > 0, `${sample.host}: CPU time`)
    }
  })

  test("a published volume's file follows its Node's new address, seen by the node role's process after the change", async () => {
    const { kube, nodeNames } = fleet!
    const node = nodeNames[1]!
    const volume = await fleet!.makeVolume(node, "moving", { "listeners.stackable.tech/listener-class": FLEET_CLASSES.nodePort })
    const failure = await fleet!.publish(volume, 60_000)
    assert.equal(failure, undefined, `publish: ${failure?.message}`)
    const [published] = await (await fleet!.watchAddresses([volume], () => fleet!.nodeIp(node), 5_000))()
    assert.ok(published! <= wallClock(), "already there")

    const seen = await fleet!.watchAddresses([volume], () => "203.0.113.9", 30_000)
    const changed = wallClock()
    await kube.patch(`/api/v1/nodes/${node}/status`, { status: { addresses: [{ type: "InternalIP", address: "203.0.113.9" }, { type: "Hostname", address: node }] } }, "strategic")
    const [at] = await seen()
    assert.ok(at! >= changed && at! <= wallClock(), `seen at ${at}, changed at ${changed}`)
  })

  test("an address that never comes is a clear failure, not a hang", async () => {
    const volume = await fleet!.makeVolume(fleet!.nodeNames[0]!, "still", { "listeners.stackable.tech/listener-class": FLEET_CLASSES.nodePort })
    assert.equal(await fleet!.publish(volume, 60_000), undefined)
    const seen = await fleet!.watchAddresses([volume], () => "192.0.2.200", 300)
    await assert.rejects(seen(), /1 of 1 volume\(s\) never showed the new address within 300 ms/u)
  })

  test("stopping the fleet ends every worker process", async () => {
    const pids = (await fleet!.samples()).map((s) => s.pid)
    await fleet!.stop()
    fleet = undefined
    assert.deepEqual(pids.filter(alive), [])
  })
})
