/**
 * The error → gRPC status table (spec §4) and the status message (the whole cause chain).
 * The table's exhaustiveness is a compile-time property: see the `@ts-expect-error` lines,
 * which `tsc --noEmit` checks (a table that compiled without an entry would fail them).
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { status } from "@grpc/grpc-js"
import { Data } from "effect"
import { UnsafeVolumeEntry } from "../../../domain/volumeTree.ts"
import { KubeApiError } from "../../../effects/shared/KubeApi.ts"
import type { KubeApiErrorReason } from "../../../effects/shared/KubeApi.ts"
import { VolumeFsError } from "../../../effects/shared/VolumeFs.ts"
import { invalidRequest, VolumeNotFound } from "../../../csi/errors.ts"
import * as V from "../../../effects/shared/volumeErrors.ts"
import {
  callStatusOf,
  causeChainMessage,
  defectStatus,
  statusByKubeApiReason,
  statusByTag,
  statusOf
} from "../../../csi/status.ts"
import type { CsiError, CsiErrorTag, StatusByKubeApiReason, StatusByTag } from "../../../csi/status.ts"

// ---- compile-time checks (run by tsc) ----
// @ts-expect-error a table that lacks a tag does not type-check
const _missingTag: StatusByTag = { InvalidRequest: status.INVALID_ARGUMENT }
// @ts-expect-error a table that lacks a KubeApiError reason does not type-check
const _missingReason: StatusByKubeApiReason = { NotFound: status.UNAVAILABLE }
type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const _tableCoversEveryTag: Equal<keyof typeof statusByTag, CsiErrorTag> = true
void [_missingTag, _missingReason, _tableCoversEveryTag]

const kubeError = (reason: KubeApiErrorReason, cause?: unknown) =>
  new KubeApiError({ reason, verb: "get", kind: "Pod", namespace: "ns", objectName: "web-0", message: `get Pod ns/web-0: ${reason}`, cause })

const fsError = new VolumeFsError({ reason: "PermissionDenied", op: "mkdir", path: "/t", message: "EACCES" })

test("every error tag maps to the spec §4 category", () => {
  const expected: ReadonlyArray<[CsiError, status]> = [
    [invalidRequest("name", "is required"), status.INVALID_ARGUMENT],
    [new VolumeNotFound({ volumeId: "v" }), status.NOT_FOUND],
    [new V.VolumeParameterMissing({ parameter: "csi.storage.k8s.io/pvc/name" }), status.INVALID_ARGUMENT],
    [new V.ListenerSelectionInvalid({ source: "PersistentVolumeClaim ns/a", problem: "both" }), status.INVALID_ARGUMENT],
    [new V.PinningTopologyMissing({ volume: "v", listenerClass: "c" }), status.INVALID_ARGUMENT],
    [new V.ListenerAddressesNotReady({ namespace: "ns", listener: "l", awaiting: "ListenerAddresses", problem: "no ingress" }), status.UNAVAILABLE],
    [new V.PodNotScheduled({ namespace: "ns", pod: "p" }), status.UNAVAILABLE],
    [new V.AwaitingNodeBinding({ kind: "PodListeners", namespace: "ns", name: "pod-u", nodeName: "n", found: { _tag: "Missing" }, waitedMs: 10 }), status.UNAVAILABLE],
    [new V.VolumeObjectInvalid({ kind: "Listener", namespace: "ns", name: "l", problem: "bad" }), status.FAILED_PRECONDITION],
    [new V.ListenerHasNoClass({ namespace: "ns", listener: "l" }), status.FAILED_PRECONDITION],
    [new V.InlineVolumeUnsupported({ volumeId: "v" }), status.FAILED_PRECONDITION],
    [new V.VolumeNotBound({ volumeId: "v", problem: "no claimRef" }), status.FAILED_PRECONDITION],
    [new V.PodReplaced({ namespace: "ns", pod: "p", expectedUid: "a", actualUid: "b" }), status.FAILED_PRECONDITION],
    [new V.PodTerminating({ namespace: "ns", pod: "p", deletionTimestamp: "2025-01-01T00:00:00Z" }), status.FAILED_PRECONDITION],
    [new V.PodVolumeNotFound({ namespace: "ns", pod: "p", claim: "c" }), status.FAILED_PRECONDITION],
    [new V.VolumeAddressRefused({ namespace: "ns", listener: "l", field: "address", value: "../x", problem: "is bad" }), status.FAILED_PRECONDITION],
    [new UnsafeVolumeEntry({ field: "address", value: "../x", problem: "is not an IP address or DNS name" }), status.FAILED_PRECONDITION],
    [new V.TargetParentMissing({ targetPath: "/p/mount", parent: "/p" }), status.FAILED_PRECONDITION],
    [new V.VolumeTreeWriteFailed({ targetPath: "/t", step: "prepare tree", cause: fsError }), status.INTERNAL],
    [fsError, status.INTERNAL]
  ]
  for (const [error, code] of expected) assert.equal(statusOf(error), code, error._tag)
  // The list above names every tag of the table, so a new tag needs a line here too.
  assert.deepEqual(new Set(expected.map(([error]) => error._tag)), new Set(Object.keys(statusByTag)))
})

test("the table agrees with the codes the programs document (effects/shared/volumeErrors.ts)", () => {
  for (const [tag, code] of Object.entries(V.volumeErrorCodes)) {
    if (tag === "VolumeApiStepFailed") continue // by its KubeApiError reason, below
    assert.equal(status[statusByTag[tag as keyof typeof statusByTag]], code, tag)
  }
})

test("a program step that failed on the API answers the code of the KubeApiError's reason", () => {
  const step = (reason: KubeApiErrorReason) =>
    new V.VolumeApiStepFailed({ step: "apply Listener", kind: "Listener", namespace: "ns", name: "l", cause: kubeError(reason) })
  assert.equal(statusOf(step("NotFound")), status.UNAVAILABLE)
  assert.equal(statusOf(step("Forbidden")), status.FAILED_PRECONDITION)
  assert.equal(statusOf(step("Conflict")), status.ABORTED)
  assert.deepEqual(callStatusOf(step("Invalid")), {
    code: status.FAILED_PRECONDITION,
    details: "apply Listener ns/l: Invalid: get Pod ns/web-0: Invalid"
  })
})

test("KubeApiError maps per reason: not there yet and transient → UNAVAILABLE, races → ABORTED, configuration → FAILED_PRECONDITION", () => {
  const expected: Record<KubeApiErrorReason, status> = {
    NotFound: status.UNAVAILABLE,
    Conflict: status.ABORTED,
    AlreadyExists: status.ABORTED,
    Invalid: status.FAILED_PRECONDITION,
    Forbidden: status.FAILED_PRECONDITION,
    BadRequest: status.INTERNAL,
    Unauthorized: status.UNAVAILABLE,
    Gone: status.UNAVAILABLE,
    TooManyRequests: status.UNAVAILABLE,
    Unavailable: status.UNAVAILABLE,
    Timeout: status.UNAVAILABLE,
    Internal: status.UNAVAILABLE
  }
  assert.deepEqual(Object.keys(statusByKubeApiReason).sort(), Object.keys(expected).sort())
  for (const [reason, code] of Object.entries(expected)) {
    assert.equal(statusOf(kubeError(reason as KubeApiErrorReason)), code, reason)
  }
})

test("an error outside the union (a bad cast) is INTERNAL, not a crash", () => {
  class Stray extends Data.TaggedError("Stray")<Record<PropertyKey, never>> {}
  assert.equal(statusOf(new Stray({}) as unknown as CsiError), status.INTERNAL)
  assert.equal(statusOf(kubeError("Teapot" as KubeApiErrorReason)), status.INTERNAL)
})

test("the message is the whole cause chain joined with ': '", () => {
  const root = new Error("connect ECONNREFUSED 10.0.0.1:6443")
  const wrapped = kubeError("Unavailable", new Error("request failed", { cause: root }))
  assert.deepEqual(callStatusOf(wrapped), {
    code: status.UNAVAILABLE,
    details: "get Pod ns/web-0: Unavailable: request failed: connect ECONNREFUSED 10.0.0.1:6443"
  })
  // A message that already contains its cause's text does not repeat it.
  assert.equal(causeChainMessage(new Error("read failed: EIO", { cause: new Error("EIO") })), "read failed: EIO")
  // Non-Error causes.
  assert.equal(causeChainMessage(new Error("outer", { cause: "inner text" })), "outer: inner text")
  assert.equal(causeChainMessage(new Error("outer", { cause: { code: 7 } })), "outer: {\"code\":7}")
})

test("an error without a message is described by its tag and fields", () => {
  class ListenerMissing extends Data.TaggedError("ListenerMissing")<{ readonly namespace: string; readonly name: string }> {}
  assert.equal(causeChainMessage(new ListenerMissing({ namespace: "ns", name: "l" })), "ListenerMissing {\"namespace\":\"ns\",\"name\":\"l\"}")
})

test("cyclic and very long chains terminate and stay bounded", () => {
  const a = new Error("a")
  const b = new Error("b", { cause: a })
  ;(a as { cause?: unknown }).cause = b
  assert.equal(causeChainMessage(b), "b: a")
  const long = causeChainMessage(new Error("x".repeat(10_000)))
  assert.ok(long.length <= 4000)
  assert.ok(long.endsWith("…"))
})

test("a defect is INTERNAL with its cause chain", () => {
  assert.deepEqual(defectStatus(new TypeError("undefined is not a function", { cause: new Error("in plan") })), {
    code: status.INTERNAL,
    details: "internal error: undefined is not a function: in plan"
  })
  assert.equal(defectStatus(undefined).details, "internal error: unknown defect")
})
