import { test } from "node:test"
import assert from "node:assert/strict"
import { decideNodeLoss } from "../../../domain/nodeLoss.ts"
import type { NodeLossPolicy, PinnedNodeState } from "../../../domain/nodeLoss.ts"
import { parseDurationMillis } from "../../../domain/duration.ts"

const NOW = Date.parse("2026-11-25T10:00:00Z")
const decide = (node: PinnedNodeState, policy: NodeLossPolicy) => decideNodeLoss({ nodeName: "node-1", node, policy, nowMillis: NOW })
const notReadyFor = (minutes: number): PinnedNodeState => ({ _tag: "Present", ready: false, sinceMillis: NOW - minutes * 60_000 })
const ON = { pinnedNodeLossRecovery: true } as const

test("a deleted Node: released with recovery on, reported (nothing touched) with it off or unset", () => {
  assert.deepEqual(decide({ _tag: "Deleted" }, ON), { _tag: "Release", why: "Node node-1 was deleted" })
  assert.deepEqual(decide({ _tag: "Deleted" }, {}), { _tag: "Report", why: "Node node-1 was deleted" })
  assert.deepEqual(decide({ _tag: "Deleted" }, { pinnedNodeLossRecovery: false, pinnedNodeLossGracePeriod: "1m" }), {
    _tag: "Report",
    why: "Node node-1 was deleted"
  })
})

test("a Node that exists is never acted on while Ready, without a Ready condition, or NotReady without a grace period", () => {
  const withGrace = { ...ON, pinnedNodeLossGracePeriod: "5m" }
  assert.deepEqual(decide({ _tag: "Present", ready: true, sinceMillis: NOW - 86_400_000 }, withGrace), { _tag: "Keep" })
  assert.deepEqual(decide({ _tag: "Present", ready: undefined, sinceMillis: undefined }, withGrace), { _tag: "Keep" })
  assert.deepEqual(decide({ _tag: "Present", ready: false, sinceMillis: undefined }, withGrace), { _tag: "Keep" })
  assert.deepEqual(decide(notReadyFor(600), ON), { _tag: "Keep" })
  assert.deepEqual(decide(notReadyFor(600), { pinnedNodeLossGracePeriod: "5m" }), { _tag: "Keep" }, "a grace period alone does not opt in")
})

test("NotReady within the grace period waits for the rest of it; past it, the volume is released", () => {
  const policy = { ...ON, pinnedNodeLossGracePeriod: "5m" }
  assert.deepEqual(decide(notReadyFor(2), policy), { _tag: "Wait", afterMillis: 3 * 60_000 })
  const released = decide(notReadyFor(5), policy)
  assert.equal(released._tag, "Release")
  assert.match(released._tag === "Release" ? released.why : "", /Node node-1 has not been Ready since 2026-11-25T09:55:00.000Z, longer than the grace period 5m/)
})

test("durations: Go-style h/m/s/ms sums; anything else is refused", () => {
  assert.equal(parseDurationMillis("90s"), 90_000)
  assert.equal(parseDurationMillis("1h30m"), 5_400_000)
  assert.equal(parseDurationMillis("2m500ms"), 120_500)
  for (const bad of ["", "5", "5 m", "1.5h", "-1m", "1d", "m"]) assert.equal(parseDurationMillis(bad), undefined, bad)
})
