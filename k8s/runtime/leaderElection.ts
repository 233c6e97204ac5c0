/**
 * Leader election on a coordination.k8s.io/v1 Lease, the lock client-go's leaderelection
 * package uses, so our replicas interoperate with its tooling (`kubectl get lease`).
 *
 * `runWhileLeading(config, effect)` runs `effect` only while this process holds the lease:
 * - Candidate: every `retryPeriod` (jittered up to ×2.2, as client-go) read the lease and
 *   take it if it is free (no holder, or released) or expired. Expiry is judged by when
 *   *this process* last saw the lease change, plus the lease's `leaseDurationSeconds` — not
 *   by the holder's timestamps — so clock skew between nodes does not matter. While another
 *   replica holds it, the candidate also watches the lease between tries and tries at once
 *   when the holder releases it: a rollout's handover then takes one watch event, not up
 *   to 2.2 retry periods without a leader (new Listeners wait for addresses meanwhile). A
 *   standby exists only during a rollout with the chart's one replica; with more, each
 *   standby's wait is a watch request per try besides its read. A failing watch leaves
 *   just the timer.
 * - Leader: renew every `retryPeriod` (an update guarded by resourceVersion). If no renewal
 *   succeeds for `renewDeadline`, or someone else holds the lease, leadership is lost:
 *   `effect` is interrupted and the process becomes a candidate again.
 * - When `effect` ends, or the whole thing is interrupted (shutdown), the lease is released
 *   (holder cleared, duration 1s) so a standby takes over at its next retry instead of
 *   waiting for expiry.
 * Guarantees: `effect` never runs on two fibers of this call at once; it is interrupted no
 * later than `renewDeadline` after the last successful renewal, which is before any other
 * candidate may take over (`leaseDuration` > `renewDeadline`).
 * Caveats: like every lease lock this relies on bounded clock *rates*, and on `effect`
 * reacting promptly to interruption. `effect` may be started several times (once per
 * term), so it must be restartable. Durations must satisfy
 * leaseDuration > renewDeadline > retryPeriod > 0.
 */
import { Clock, Duration, Effect, Metric, Option, Random, Ref, Stream } from "effect"
import { Kinds } from "../../domain/kinds.ts"
import { getOption, hasReason, KubeApi } from "../../effects/shared/KubeApi.ts"
import type { KubeApiError, KubeObject } from "../../effects/shared/KubeApi.ts"
import { leaderElectionMaster } from "./metrics.ts"

export interface LeaderElectionConfig {
  readonly lease: { readonly namespace: string; readonly name: string }
  /** Unique per replica, e.g. the Pod name. */
  readonly identity: string
  /** How long a lease stays valid without renewal (default 15s). */
  readonly leaseDuration?: Duration.Input | undefined
  /** A leader gives up if it could not renew for this long (default 10s). */
  readonly renewDeadline?: Duration.Input | undefined
  /** Pause between attempts to acquire or renew (default 2s). */
  readonly retryPeriod?: Duration.Input | undefined
}

interface LeaseSpec {
  readonly holderIdentity?: string | undefined
  readonly leaseDurationSeconds?: number | undefined
  readonly acquireTime?: string | undefined
  readonly renewTime?: string | undefined
  readonly leaseTransitions?: number | undefined
}

interface ElectorState {
  /** The lease as last read or written (its resourceVersion guards the next update). */
  readonly lease: KubeObject | undefined
  /** Local clock time when the lease's content last changed, as far as we saw. */
  readonly observedAt: number
}

type Attempt = "Leading" | "HeldByOther" | "Failed"

/** RFC 3339 with microseconds, the MicroTime format Lease timestamps use. */
const microTime = (millis: number): string => new Date(millis).toISOString().replace(/\.(\d{3})Z$/u, ".$1000Z")

const specOf = (lease: KubeObject | undefined): LeaseSpec =>
  (typeof lease?.["spec"] === "object" && lease["spec"] !== null ? lease["spec"] : {}) as LeaseSpec

const sameRecord = (a: KubeObject | undefined, b: KubeObject | undefined): boolean => {
  const x = specOf(a)
  const y = specOf(b)
  return a !== undefined && b !== undefined && x.holderIdentity === y.holderIdentity && x.renewTime === y.renewTime &&
    x.leaseTransitions === y.leaseTransitions
}

const validDurations = (config: LeaderElectionConfig) => {
  const leaseDuration = Duration.fromInputUnsafe(config.leaseDuration ?? "15 seconds")
  const renewDeadline = Duration.fromInputUnsafe(config.renewDeadline ?? "10 seconds")
  const retryPeriod = Duration.fromInputUnsafe(config.retryPeriod ?? "2 seconds")
  if (!Duration.isGreaterThan(leaseDuration, renewDeadline)) return Option.none()
  if (!Duration.isGreaterThan(renewDeadline, retryPeriod)) return Option.none()
  if (!Duration.isPositive(retryPeriod)) return Option.none()
  return Option.some({ leaseDuration, renewDeadline, retryPeriod })
}

export const runWhileLeading = <A, E, R>(
  config: LeaderElectionConfig,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | KubeApi> =>
  Effect.gen(function*() {
    const durations = validDurations(config)
    if (Option.isNone(durations)) {
      return yield* Effect.die(new Error(
        `leader election: durations must satisfy leaseDuration > renewDeadline > retryPeriod > 0 (got ${String(config.leaseDuration)}, ${String(config.renewDeadline)}, ${String(config.retryPeriod)})`
      ))
    }
    const { leaseDuration, renewDeadline, retryPeriod } = durations.value
    const api = yield* KubeApi
    const ref = { namespace: config.lease.namespace, name: config.lease.name }
    const state = yield* Ref.make<ElectorState>({ lease: undefined, observedAt: 0 })
    const leading = Metric.withAttributes(leaderElectionMaster, { lease: `${ref.namespace}/${ref.name}` })
    const leaseSeconds = Math.max(1, Math.round(Duration.toSeconds(leaseDuration)))

    const remember = (lease: KubeObject, now: number) => Ref.set(state, { lease, observedAt: now })

    const observe = (lease: KubeObject, now: number) =>
      Ref.update(state, (s) => (sameRecord(s.lease, lease) ? { lease, observedAt: s.observedAt } : { lease, observedAt: now }))

    const write = (current: KubeObject, now: number): Effect.Effect<KubeObject, KubeApiError> => {
      const spec = specOf(current)
      const continuing = spec.holderIdentity === config.identity
      const next: LeaseSpec = {
        holderIdentity: config.identity,
        leaseDurationSeconds: leaseSeconds,
        acquireTime: continuing && spec.acquireTime !== undefined ? spec.acquireTime : microTime(now),
        renewTime: microTime(now),
        leaseTransitions: (spec.leaseTransitions ?? 0) + (continuing ? 0 : 1)
      }
      return api.update(Kinds.Lease, { ...current, spec: next })
    }

    /** One attempt to acquire or renew, from our last copy when we hold it (saves a GET per renewal). */
    const tryAcquireOrRenew: Effect.Effect<Attempt> = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const known = (yield* Ref.get(state)).lease
      if (known !== undefined && specOf(known).holderIdentity === config.identity) {
        const renewed = yield* Effect.result(write(known, now))
        if (renewed._tag === "Success") {
          yield* remember(renewed.success, now)
          return "Leading"
        }
        if (!hasReason("Conflict")(renewed.failure)) return "Failed"
        // someone else wrote the lease: read it and decide as a candidate
      }
      const fetched = yield* Effect.result(getOption(api.get(Kinds.Lease, ref)))
      if (fetched._tag === "Failure") return "Failed"
      if (Option.isNone(fetched.success)) {
        const created = yield* Effect.result(api.create(Kinds.Lease, {
          apiVersion: "coordination.k8s.io/v1",
          kind: "Lease",
          metadata: { namespace: ref.namespace, name: ref.name },
          spec: {
            holderIdentity: config.identity,
            leaseDurationSeconds: leaseSeconds,
            acquireTime: microTime(now),
            renewTime: microTime(now),
            leaseTransitions: 0
          }
        }))
        if (created._tag === "Failure") return "Failed"
        yield* remember(created.success, now)
        return "Leading"
      }
      const lease = fetched.success.value
      yield* observe(lease, now)
      const spec = specOf(lease)
      const holder = spec.holderIdentity ?? ""
      if (holder !== "" && holder !== config.identity) {
        const { observedAt } = yield* Ref.get(state)
        const validFor = (spec.leaseDurationSeconds ?? leaseSeconds) * 1000
        if (observedAt + validFor > now) return "HeldByOther"
      }
      const taken = yield* Effect.result(write(lease, now))
      if (taken._tag === "Failure") return "Failed"
      yield* remember(taken.success, now)
      return "Leading"
    }).pipe(
      // each attempt to acquire or renew the lease is a trace of its own, with its result
      Effect.tap((attempt) => Effect.annotateCurrentSpan("leader_election.result", attempt)),
      Effect.withSpan("leader election", { root: true, attributes: { lease: `${ref.namespace}/${ref.name}`, identity: config.identity } })
    )

    /** Completes when the lease, after `resourceVersion`, is released or deleted; never if the watch fails or ends. */
    const released = (resourceVersion: string) =>
      api.watch(Kinds.Lease, { namespace: ref.namespace, fieldSelector: `metadata.name=${ref.name}`, resourceVersion }).pipe(
        Stream.filter((event) => event.type === "DELETED" || (event.type !== "BOOKMARK" && (specOf(event.object).holderIdentity ?? "") === "")),
        Stream.runHead,
        Effect.flatMap((first) => (Option.isSome(first) ? Effect.void : Effect.never)),
        Effect.catch(() => Effect.never)
      )

    const acquire = Effect.gen(function*() {
      for (;;) {
        const attempt = yield* tryAcquireOrRenew
        if (attempt === "Leading") return
        const jitter = 1 + 1.2 * (yield* Random.next)
        const pause = Effect.sleep(Duration.times(retryPeriod, jitter))
        const seen = (yield* Ref.get(state)).lease?.metadata.resourceVersion
        yield* attempt === "HeldByOther" && seen !== undefined ? Effect.raceFirst(pause, released(seen)) : pause
      }
    })

    /** Completes when leadership is lost. */
    const keepRenewing = Effect.gen(function*() {
      let lastRenewal = yield* Clock.currentTimeMillis
      while (true) {
        yield* Effect.sleep(retryPeriod)
        const now = yield* Clock.currentTimeMillis
        const left = Duration.subtract(renewDeadline, Duration.millis(now - lastRenewal))
        const outcome = Duration.isPositive(left)
          ? Option.getOrElse(yield* Effect.timeoutOption(tryAcquireOrRenew, left), (): Attempt => "Failed")
          : "Failed"
        if (outcome === "Leading") lastRenewal = yield* Clock.currentTimeMillis
        else if (outcome === "HeldByOther") return "taken over"
        else if ((yield* Clock.currentTimeMillis) - lastRenewal >= Duration.toMillis(renewDeadline)) return "renew deadline passed"
      }
    })

    /** Hands the lease back if we hold it; best effort, bounded by the retry period. */
    const release = Effect.gen(function*() {
      const known = (yield* Ref.get(state)).lease
      if (known === undefined || specOf(known).holderIdentity !== config.identity) return
      const now = yield* Clock.currentTimeMillis
      const spec = specOf(known)
      const released = yield* Effect.result(api.update(Kinds.Lease, {
        ...known,
        spec: { leaseDurationSeconds: 1, renewTime: microTime(now), acquireTime: microTime(now), leaseTransitions: spec.leaseTransitions ?? 0 }
      }))
      if (released._tag === "Success") yield* remember(released.success, now)
      yield* Effect.logInfo("released the leader lease")
    }).pipe(Effect.timeoutOption(retryPeriod), Effect.ignore)

    const term = Effect.gen(function*() {
      yield* acquire
      yield* Metric.update(leading, 1)
      yield* Effect.logInfo("acquired the leader lease")
      const outcome = yield* Effect.raceFirst(
        Effect.map(Effect.exit(effect), (exit) => ({ _tag: "Ended" as const, exit })),
        Effect.map(keepRenewing, (reason) => ({ _tag: "Lost" as const, reason }))
      ).pipe(Effect.ensuring(Metric.update(leading, 0)))
      if (outcome._tag === "Lost") yield* Effect.logWarning(`lost the leader lease (${outcome.reason}); stopped leading`)
      return outcome
    })

    const result = yield* Effect.gen(function*() {
      while (true) {
        const outcome = yield* term
        if (outcome._tag === "Ended") return outcome.exit
      }
    }).pipe(Effect.ensuring(release))
    return yield* result
  }).pipe(Effect.annotateLogs({ lease: `${config.lease.namespace}/${config.lease.name}`, identity: config.identity }))
