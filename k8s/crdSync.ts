/**
 * The controller keeps its CRDs current (docs/migration.md, "CRDs"): at start it makes
 * each of this build's three CRDs the live one, unless that would break something that
 * exists (domain/crdCompatibility.ts) — then it leaves the live CRD alone, says once what
 * to do (a log line and a Warning Event on the CRD), and the controller runs on it.
 *
 * - Missing: created by server-side apply, then awaited until Established — where the
 *   controller may create CRDs. The chart does not let it (RBAC cannot limit `create` to
 *   names): Helm's `crds/` creates them, and a missing one is an error naming the fix.
 * - Present: its spec is replaced (PUT, keeping the live metadata), so the live spec is
 *   exactly this build's. Server-side apply would not do: it keeps a field that another
 *   manager also owns — every field Helm's install from `crds/` or the upstream operator
 *   wrote — so a field this build drops would linger. An unchanged spec is a no-op for
 *   the API server (no new resourceVersion, no write).
 * Only our own CRD names are ever read or written; no object is ever deleted.
 */
import { Data, Effect, Schedule } from "effect"
import {
  CrdShapeSchema,
  fieldPathText,
  fieldsInUse,
  refusalMessage,
  removedFieldsOfCrd,
  versionProblemsOf
} from "../domain/crdCompatibility.ts"
import type { CrdShape, CrdUpgradeProblem, ObjectIdentity } from "../domain/crdCompatibility.ts"
import { decodeWith } from "../domain/decode.ts"
import type { DecodeError } from "../domain/decode.ts"
import { FieldManagers } from "../domain/constants.ts"
import { apiVersionOf, Kinds } from "../domain/kinds.ts"
import type { ResourceKind } from "../domain/kinds.ts"
import { EventRecorder } from "../effects/shared/EventRecorder.ts"
import { getOption, isTransientReason, KubeApi, KubeApiError } from "../effects/shared/KubeApi.ts"
import type { KubeObject } from "../effects/shared/KubeApi.ts"
import type { CustomResourceDefinition } from "./crds.ts"

export type CrdSyncResult = "created" | "updated" | "unchanged" | "refused"

export interface CrdSyncOutcome {
  readonly name: string
  readonly result: CrdSyncResult
  readonly problems: ReadonlyArray<CrdUpgradeProblem>
}

export const CRD_REFUSED_REASON = "CrdUpgradeRefused"

/** A CRD we created did not become Established while we waited (about 30 seconds). */
export class CrdNotEstablished extends Data.TaggedError("CrdNotEstablished")<{ readonly name: string; readonly message: string }> {}

const decodeCrd = decodeWith(Kinds.CustomResourceDefinition.kind, CrdShapeSchema)

const ESTABLISHED_WAIT = Schedule.spaced("200 millis").pipe(Schedule.upTo({ times: 150 }))

const isEstablished = (crd: KubeObject): boolean =>
  ((crd["status"] as { conditions?: ReadonlyArray<{ type?: string; status?: string }> } | undefined)?.conditions ?? [])
    .some((c) => c.type === "Established" && c.status === "True")

const waitEstablished = (name: string) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const crd = yield* api.get(Kinds.CustomResourceDefinition, { name })
    if (!isEstablished(crd)) return yield* new CrdNotEstablished({ name, message: `CRD ${name} is not Established yet` })
  }).pipe(Effect.retry(ESTABLISHED_WAIT))

/** The kind of `crd`'s objects in `version`, to list them. */
const kindIn = (crd: CustomResourceDefinition, version: string): ResourceKind => ({
  group: crd.spec.group,
  version,
  kind: crd.spec.names.kind,
  plural: crd.spec.names.plural,
  namespaced: crd.spec.scope === "Namespaced"
})

/** The objects of each version a removed field belongs to (listed in a version the live CRD serves). */
const objectsByVersion = (live: CrdShape, desired: CustomResourceDefinition, versions: ReadonlySet<string>) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const served = live.spec.versions.filter((v) => v.served).map((v) => v.name)
    const byVersion = new Map<string, ReadonlyArray<ObjectIdentity>>()
    for (const version of versions) {
      // All versions of one CRD hold the same objects; read them in the field's version if it is served.
      const readIn = served.includes(version) ? version : served[0]
      if (readIn === undefined) continue
      const listed = yield* api.list(kindIn(desired, readIn))
      byVersion.set(version, listed.items)
    }
    return byVersion
  })

const refuse = (live: KubeObject, problems: ReadonlyArray<CrdUpgradeProblem>) =>
  Effect.gen(function*() {
    const name = live.metadata.name ?? "?"
    const message = refusalMessage(name, problems)
    yield* Effect.logWarning(message).pipe(Effect.annotateLogs({
      crd: name,
      problems: problems.map((p) => p._tag === "FieldInUse" ? `${p._tag} ${fieldPathText(p.path)}` : `${p._tag} ${p.version}`)
    }))
    const events = yield* EventRecorder
    yield* events.record({
      regarding: { apiVersion: apiVersionOf(Kinds.CustomResourceDefinition), kind: "CustomResourceDefinition", name, uid: live.metadata.uid },
      type: "Warning",
      reason: CRD_REFUSED_REASON,
      action: "UpdateCustomResourceDefinition",
      note: message
    })
  })

/** Make `desired` the live CRD if nothing that exists breaks; one attempt (Conflict: the caller retries). */
export const syncCrd = Effect.fn("syncCrd")(function*(desired: CustomResourceDefinition) {
  const api = yield* KubeApi
  const name = desired.metadata.name
  const found = yield* getOption(api.get(Kinds.CustomResourceDefinition, { name }))
  if (found._tag === "None") {
    yield* api.apply(Kinds.CustomResourceDefinition, { ...desired }, { fieldManager: FieldManagers.crds, force: true }).pipe(
      Effect.mapError((error) =>
        error.reason === "Forbidden"
          ? new KubeApiError({
            ...error,
            message: `CRD ${name} does not exist, and the controller may not create CRDs (the chart grants get/update on its own three only: ` +
              `RBAC cannot limit create to names). Install them: helm install does (crds/), or kubectl apply --server-side -f deploy/helm/listener-operator/crds/crds.yaml, ` +
              `or listener-operator crd | kubectl apply --server-side -f -`
          })
          : error
      )
    )
    yield* waitEstablished(name)
    return { name, result: "created", problems: [] } satisfies CrdSyncOutcome
  }
  const live = found.value
  const liveShape: CrdShape = yield* decodeCrd(live)
  const removed = removedFieldsOfCrd(liveShape, desired)
  const objects = removed.length > 0 ? yield* objectsByVersion(liveShape, desired, new Set(removed.map((r) => r.version))) : new Map()
  const problems = [...versionProblemsOf(liveShape, desired), ...fieldsInUse(removed, (version) => objects.get(version))]
  if (problems.length > 0) {
    yield* refuse(live, problems)
    return { name, result: "refused", problems } satisfies CrdSyncOutcome
  }
  // managedFields left out: the API server then keeps the live ones (and records ours for what changes).
  const { managedFields: _managedFields, ...metadata } = live.metadata
  const replaced = yield* api.update(Kinds.CustomResourceDefinition, { ...live, metadata, spec: desired.spec }, { fieldManager: FieldManagers.crds })
  const result: CrdSyncResult = replaced.metadata.resourceVersion === live.metadata.resourceVersion ? "unchanged" : "updated"
  return { name, result, problems: [] } satisfies CrdSyncOutcome
})

/** How syncing one CRD fails: the API, a CRD that never became Established, a live CRD that is not one. */
export type CrdSyncError = KubeApiError | CrdNotEstablished | DecodeError

const transient = (error: CrdSyncError): boolean => error._tag === "KubeApiError" && isTransientReason(error.reason)

const RETRY = Schedule.min([Schedule.exponential("500 millis"), Schedule.spaced("30 seconds")]).pipe(Schedule.jittered)

/**
 * Sync every CRD of this build, retrying while the API server is away or another replica
 * wrote meanwhile (Conflict); one summary line. A refusal is an outcome, not a failure;
 * anything else (e.g. Forbidden) fails, naming the CRD.
 */
export const syncCrds = (crds: ReadonlyArray<CustomResourceDefinition>) =>
  Effect.gen(function*() {
    const outcomes: CrdSyncOutcome[] = []
    for (const crd of crds) {
      const outcome = yield* syncCrd(crd).pipe(
        Effect.tapError((error) =>
          transient(error) ? Effect.logInfo(`syncing CRD ${crd.metadata.name} failed, retrying: ${error.message}`) : Effect.void
        ),
        Effect.retry({ schedule: RETRY, while: transient })
      )
      outcomes.push(outcome)
    }
    const named = (result: CrdSyncResult) => outcomes.filter((o) => o.result === result).map((o) => o.name).join(", ")
    yield* Effect.logInfo(
      `CRDs: created [${named("created")}], updated [${named("updated")}], unchanged [${named("unchanged")}], refused [${named("refused")}]`
    )
    return outcomes
  })
