/**
 * A scripted fake of the KubeApi port's list and watch, for runtime unit tests: every list
 * call waits for a response the test supplies, every watch call becomes a handle the test
 * drives (emit events, end the stream, fail it). Other methods are unimplemented.
 *
 * A watch-list (`sendInitialEvents`) is refused with 422 Invalid, as by an API server
 * without the WatchList feature, unless the fake is made with `{ watchList: true }`: then
 * it is a scripted watch like any other (the test emits the initial events and bookmark).
 */
import { Cause, Effect, Layer, Queue, Ref, Stream } from "effect"
import type { ResourceKind } from "../../../../domain/kinds.ts"
import { KubeApi, KubeApiError } from "../../../../effects/shared/KubeApi.ts"
import type {
  KubeApiErrorReason,
  KubeObject,
  ListOptions,
  ListResult,
  WatchEvent,
  WatchEventType,
  WatchOptions
} from "../../../../effects/shared/KubeApi.ts"

export interface ScriptedWatch {
  readonly options: WatchOptions
  emit(type: WatchEventType, object: KubeObject): Effect.Effect<void>
  readonly end: Effect.Effect<void>
  fail(reason: KubeApiErrorReason): Effect.Effect<void>
}

export interface ScriptedKind {
  /** Answers the next list call (a page, when `continueToken` is given). */
  respondList(items: ReadonlyArray<KubeObject>, resourceVersion: string, continueToken?: string): Effect.Effect<void>
  failList(reason: KubeApiErrorReason): Effect.Effect<void>
  /** Waits until the code under test opens its next watch of this kind. */
  readonly nextWatch: Effect.Effect<ScriptedWatch>
  readonly listCalls: Effect.Effect<ReadonlyArray<ListOptions | undefined>>
  /** Watch-lists asked for (refused ones too). */
  readonly watchListCalls: Effect.Effect<number>
}

export interface FakeKubeApi {
  readonly layer: Layer.Layer<KubeApi>
  /** The port itself, for `Effect.provideService(effect, KubeApi, fake.service)`. */
  readonly service: KubeApi["Service"]
  kind(kind: ResourceKind): ScriptedKind
}

export const apiError = (reason: KubeApiErrorReason, verb: string, kind = "Thing"): KubeApiError =>
  new KubeApiError({ reason, verb, kind, message: `${verb} ${kind}: ${reason}` })

export const object = (
  name: string,
  resourceVersion: string,
  extra: { namespace?: string; labels?: Record<string, string>; uid?: string; spec?: unknown; kind?: string } = {}
): KubeObject => ({
  apiVersion: "v1",
  kind: extra.kind ?? "ConfigMap",
  metadata: {
    name,
    namespace: extra.namespace ?? "default",
    uid: extra.uid ?? `uid-${name}`,
    resourceVersion,
    ...(extra.labels === undefined ? {} : { labels: extra.labels })
  },
  ...(extra.spec === undefined ? {} : { spec: extra.spec })
})

type ListResponse = { readonly _tag: "ok"; readonly result: ListResult } | { readonly _tag: "error"; readonly reason: KubeApiErrorReason }

const makeKind = (kind: ResourceKind, servesWatchList: boolean) =>
  Effect.gen(function*() {
    const watchListCalls = yield* Ref.make(0)
    const responses = yield* Queue.unbounded<ListResponse>()
    const watches = yield* Queue.unbounded<ScriptedWatch>()
    const listCalls = yield* Ref.make<ReadonlyArray<ListOptions | undefined>>([])
    const list = (options?: ListOptions) =>
      Effect.andThen(
        Ref.update(listCalls, (calls) => [...calls, options]),
        Effect.flatMap(Queue.take(responses), (response) =>
          response._tag === "ok" ? Effect.succeed(response.result) : Effect.fail(apiError(response.reason, "list", kind.kind)))
      )
    const watch = (options: WatchOptions): Stream.Stream<WatchEvent, KubeApiError> =>
      Stream.unwrap(Effect.gen(function*() {
        if (options.sendInitialEvents === true) {
          yield* Ref.update(watchListCalls, (n) => n + 1)
          if (!servesWatchList) return Stream.fail(apiError("Invalid", "watch", kind.kind))
        }
        const events = yield* Queue.unbounded<WatchEvent, KubeApiError | Cause.Done>()
        yield* Queue.offer(watches, {
          options,
          emit: (type, object) => Effect.asVoid(Queue.offer(events, { type, object })),
          end: Effect.asVoid(Queue.end(events)),
          fail: (reason) => Effect.asVoid(Queue.fail(events, apiError(reason, "watch", kind.kind)))
        })
        return Stream.fromQueue(events)
      }))
    const script: ScriptedKind = {
      respondList: (items, resourceVersion, continueToken) =>
        Effect.asVoid(Queue.offer(responses, {
          _tag: "ok",
          result: { items, resourceVersion, ...(continueToken === undefined ? {} : { continue: continueToken }) }
        })),
      failList: (reason) => Effect.asVoid(Queue.offer(responses, { _tag: "error", reason })),
      nextWatch: Queue.take(watches),
      listCalls: Ref.get(listCalls),
      watchListCalls: Ref.get(watchListCalls)
    }
    return { script, list, watch }
  })

export const makeFakeKubeApi = (
  kinds: ReadonlyArray<ResourceKind>,
  options: { readonly watchList?: boolean } = {}
): Effect.Effect<FakeKubeApi> =>
  Effect.gen(function*() {
    const byPlural = new Map<string, Effect.Success<ReturnType<typeof makeKind>>>()
    for (const kind of kinds) byPlural.set(kind.plural, yield* makeKind(kind, options.watchList === true))
    const of = (kind: ResourceKind) => {
      const entry = byPlural.get(kind.plural)
      if (entry === undefined) throw new Error(`fake KubeApi: kind ${kind.kind} was not scripted`)
      return entry
    }
    const scripted = {
      list: (kind: ResourceKind, listOptions?: ListOptions) => of(kind).list(listOptions),
      watch: (kind: ResourceKind, watchOptions: WatchOptions) => of(kind).watch(watchOptions)
    }
    return { layer: KubeApi.layerStub(scripted), service: KubeApi.stub(scripted), kind: (kind) => of(kind).script }
  })
