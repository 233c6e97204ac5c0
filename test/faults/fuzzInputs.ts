/**
 * fast-check arbitraries for the hostile-input fuzzer (csiFuzz.test.ts): CSI requests as
 * a confused or hostile caller on either socket would send them, and Listener /
 * ListenerClass specs, load-balancer ingress values and Node addresses as a careless or
 * hostile user would write them. Each mixes well-formed values (so the fuzzer reaches
 * deep into the programs) with the malformed ones the validation must catch.
 */
import fc from "fast-check";

/** Strings a hostile caller likes: empty, NUL, path tricks, very long, non-ASCII, whitespace. */
export const nastyString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.constantFrom("", " ", "\0", "..", ".", "/", "a\0b", "-", "A", "é", "💥", "a".repeat(64), "x".repeat(300), "web", "default", "0", "*", "$(id)", "../../etc") },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 250, maxLength: 5000 }) }
  );

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9.~_-]{0,20}$/);

/**
 * Pod directories `<pods>/f-<pod>` the test fills beforehand with what the kubelet keeps
 * there (other volumes, `vol_data.json` beside a CSI volume's `mount`, container dirs):
 * publishes and unpublishes go to them often, so the rest of a Pod directory is put to
 * the test, and to new ones.
 */
export const KNOWN_PODS = ["p1", "p2", "p3"] as const;
/** Volume names used often, so publishes and unpublishes meet at the same targets. */
export const KNOWN_VOLUMES = ["v1", "v2"] as const;
const podName = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...KNOWN_PODS) }, { weight: 1, arbitrary: segment });
const volumeName = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...KNOWN_VOLUMES) }, { weight: 1, arbitrary: segment });
/** A target of the kubelet's own shape: `<pods>/f-<pod>/volumes/kubernetes.io~csi/<volume>/mount`. */
export const kubeletTarget = (podsDir: string): fc.Arbitrary<string> =>
  fc.tuple(podName, volumeName).map(([pod, pv]) => `${podsDir}/f-${pod}/volumes/kubernetes.io~csi/${pv}/mount`);
/** Paths inside a Pod directory the kubelet owns, not a volume's `mount`: never to be touched. */
const podInnards = fc.constantFrom(
  "", "/", "/volumes", "/volumes/kubernetes.io~csi", "/volumes/kubernetes.io~csi/v1", "/volumes/kubernetes.io~csi/v1/vol_data.json",
  "/volumes/kubernetes.io~csi/v1/mount/..", "/volumes/kubernetes.io~csi/v1/mount/addresses", "/volumes/kubernetes.io~csi/v1/mount/..data",
  "/volumes/kubernetes.io~csi/v1/.mount.publishing", "/volumes/kubernetes.io~empty-dir/cache", "/etc-hosts", "/containers/app", "/plugins",
  "/volumes/kubernetes.io~csi/v1/mount/../../v2/mount", "/volumes/kubernetes.io~csi/decoy/mount/address"
);

/**
 * Target paths: the kubelet's own shape below `<pods>/f-…` (published for real), other
 * paths inside those Pod directories, weird paths there (`..`, `//`, NUL, overlong
 * segments), and paths anywhere else on the machine — all of which must be refused,
 * never written or removed.
 */
export const targetPath = (podsDir: string, outsideDir: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: kubeletTarget(podsDir) },
    { weight: 2, arbitrary: fc.tuple(podName, podInnards).map(([pod, inner]) => `${podsDir}/f-${pod}${inner}`) },
    { weight: 2, arbitrary: nastyString().map((tail) => `${podsDir}/f-${tail}`) },
    { weight: 1, arbitrary: fc.array(fc.oneof(segment, fc.constantFrom("..", ".", "", "x".repeat(300))), { minLength: 1, maxLength: 6 }).map((parts) => `${podsDir}/f-${parts.join("/")}`) },
    { weight: 2, arbitrary: fc.constantFrom(outsideDir, `${outsideDir}/keep`, `${outsideDir}/new/mount`, podsDir, `${podsDir}/`, `${podsDir}/sentinel-pod`, `${podsDir}/../plugins`, "/", "/etc", "/tmp", "relative/mount", "", `${podsDir}/f-a/../../outside`) },
    { weight: 1, arbitrary: nastyString() }
  );

export const ACCESS_MODES = ["UNKNOWN", "SINGLE_NODE_WRITER", "SINGLE_NODE_READER_ONLY", "MULTI_NODE_READER_ONLY", "MULTI_NODE_SINGLE_WRITER", "MULTI_NODE_MULTI_WRITER", "SINGLE_NODE_SINGLE_WRITER", "SINGLE_NODE_MULTI_WRITER"];

export const capability = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ mount: fc.record({ fs_type: fc.constantFrom("", "ext4", "xfs"), mount_flags: fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }) }), access_mode: fc.record({ mode: fc.constantFrom(...ACCESS_MODES) }) }) },
    { weight: 1, arbitrary: fc.record({ block: fc.constant({}), access_mode: fc.record({ mode: fc.constantFrom(...ACCESS_MODES) }) }) },
    { weight: 1, arbitrary: fc.record({ access_mode: fc.record({ mode: fc.integer({ min: 0, max: 7 }) }) }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.constant({}) }
  );

const CONTEXT_KEYS = [
  "listeners.stackable.tech/listener-name",
  "listeners.stackable.tech/listener-class",
  "csi.storage.k8s.io/pod.name",
  "csi.storage.k8s.io/pod.namespace",
  "csi.storage.k8s.io/pod.uid",
  "csi.storage.k8s.io/serviceAccount.name",
  "csi.storage.k8s.io/ephemeral",
  "csi.storage.k8s.io/pvc/name",
  "csi.storage.k8s.io/pvc/namespace"
];

/** A volume context or parameters map: real keys with good or hostile values, plus junk keys. */
export const stringMap = (good: Record<string, string>): fc.Arbitrary<Record<string, string>> =>
  fc.tuple(
    fc.subarray(Object.keys(good)),
    fc.dictionary(fc.oneof(fc.constantFrom(...CONTEXT_KEYS), nastyString()), nastyString(), { maxKeys: 4 })
  ).map(([kept, noise]) => ({ ...Object.fromEntries(kept.map((key) => [key, good[key]!])), ...noise }));

export interface CsiCase {
  readonly service: "Identity" | "Controller" | "Node";
  readonly method: string;
  readonly request: Record<string, unknown>;
}

const optionalField = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined, freq: 5 });

/** One request to one of the two sockets' services. */
export const csiCase = (podsDir: string, outsideDir: string, goodContext: Record<string, string>): fc.Arbitrary<CsiCase> => {
  const volumeId = optionalField(fc.oneof(fc.constantFrom("pv-fuzz-0", "pv-fuzz-1"), nastyString()));
  const target = optionalField(targetPath(podsDir, outsideDir));
  const wellFormedPublish = fc.tuple(kubeletTarget(podsDir), fc.constantFrom(...ACCESS_MODES.slice(1)), fc.boolean()).map(([target, mode, readonly]) => ({
    service: "Node" as const,
    method: "NodePublishVolume",
    request: {
      volume_id: "pv-fuzz-0",
      target_path: target,
      volume_capability: { mount: { fs_type: "", mount_flags: [] }, access_mode: { mode } },
      readonly,
      volume_context: goodContext
    }
  }));
  return fc.oneof(
    { weight: 3, arbitrary: wellFormedPublish },
    { weight: 6, arbitrary: fc.record({ volume_id: volumeId, target_path: target, volume_capability: optionalField(capability()), readonly: fc.boolean(), volume_context: stringMap(goodContext), staging_target_path: optionalField(nastyString()) })
      .map((request) => ({ service: "Node" as const, method: "NodePublishVolume", request })) },
    { weight: 3, arbitrary: fc.record({ volume_id: volumeId, target_path: target })
      .map((request) => ({ service: "Node" as const, method: "NodeUnpublishVolume", request })) },
    { weight: 1, arbitrary: kubeletTarget(podsDir).map((target) => ({ service: "Node" as const, method: "NodeUnpublishVolume", request: { volume_id: "pv-fuzz-0", target_path: target } })) },
    { weight: 3, arbitrary: fc.record({
      name: optionalField(nastyString()),
      volume_capabilities: fc.array(capability(), { maxLength: 3 }),
      parameters: stringMap({ "csi.storage.k8s.io/pvc/name": "data-0", "csi.storage.k8s.io/pvc/namespace": "faults" }),
      accessibility_requirements: optionalField(fc.record({ requisite: fc.array(fc.record({ segments: fc.dictionary(nastyString(), nastyString(), { maxKeys: 2 }) }), { maxLength: 2 }) })),
      volume_content_source: optionalField(fc.constantFrom({ snapshot: { snapshot_id: "s" } }, { volume: { volume_id: "v" } }))
    }).map((request) => ({ service: "Controller" as const, method: "CreateVolume", request })) },
    { weight: 1, arbitrary: fc.record({ volume_id: volumeId }).map((request) => ({ service: "Controller" as const, method: "DeleteVolume", request })) },
    { weight: 1, arbitrary: fc.record({ volume_id: volumeId, volume_capabilities: fc.array(capability(), { maxLength: 3 }), volume_context: stringMap(goodContext) })
      .map((request) => ({ service: "Controller" as const, method: "ValidateVolumeCapabilities", request })) },
    { weight: 1, arbitrary: fc.constantFrom<CsiCase>(
      { service: "Node", method: "NodeGetInfo", request: {} },
      { service: "Node", method: "NodeGetCapabilities", request: {} },
      { service: "Controller", method: "ControllerGetCapabilities", request: {} },
      { service: "Identity", method: "GetPluginCapabilities", request: {} },
      { service: "Identity", method: "Probe", request: {} },
      { service: "Identity", method: "GetPluginInfo", request: {} }
    ) }
  );
};

// ---- API side ------------------------------------------------------------------------

const NODE_ADDRESS_TYPES = ["ExternalDNS", "ExternalIP", "InternalDNS", "InternalIP", "Hostname"];

/** An address as a network, a cloud or a hostile user might write it. */
export const address = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.ipV4(), fc.ipV6(), fc.domain(), fc.ipV4Extended(),
    fc.constantFrom("", "localhost", "::", "0.0.0.0", "256.1.1.1", "1.2.3", "-bad-.example.com", "a..b", "x".repeat(300), "exa mple.com", "../etc", "fe80::1%eth0", "[::1]", "1.2.3.4:80"),
    nastyString()
  );

export const nodeAddresses = (): fc.Arbitrary<Array<{ type: string; address: string }>> =>
  fc.array(fc.record({ type: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...NODE_ADDRESS_TYPES) }, { weight: 1, arbitrary: nastyString() }), address: address() }), { maxLength: 4 });

/** A comma-separated override annotation, or none. */
export const nodeAddressOverride = (): fc.Arbitrary<string | undefined> =>
  optionalField(fc.array(address(), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(",")));

export const loadBalancerIngress = (): fc.Arbitrary<Array<Record<string, unknown>>> =>
  fc.array(fc.oneof(
    fc.record({ ip: address() }),
    fc.record({ hostname: address() }),
    fc.record({ ip: address(), hostname: address() }),
    fc.record({ ip: fc.ipV4(), ports: fc.array(fc.record({ port: fc.integer({ min: -5, max: 70_000 }), protocol: fc.constantFrom("TCP", "UDP", "bogus") }), { maxLength: 2 }) })
  ), { maxLength: 3 });

const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });

/** A ListenerClass spec an administrator could have meant: every field valid. */
const cleanClassSpec = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.record({
    serviceType: fc.constantFrom("ClusterIP", "NodePort", "LoadBalancer"),
    serviceAnnotations: maybe(fc.dictionary(fc.constantFrom("example.com/x", "external-dns.alpha.kubernetes.io/hostname"), fc.domain(), { maxKeys: 2 })),
    serviceExternalTrafficPolicy: maybe(fc.constantFrom("Cluster", "Local")),
    loadBalancerAllocateNodePorts: maybe(fc.boolean()),
    preferredAddressType: maybe(fc.constantFrom("IP", "Hostname", "HostnameConservative")),
    nodeAddressTypes: maybe(fc.uniqueArray(fc.constantFrom(...NODE_ADDRESS_TYPES), { maxLength: 5 })),
    nodeAddressSelection: maybe(fc.constantFrom("First", "OnePerFamily", "All")),
    pinnedNodePorts: maybe(fc.boolean())
  }, { requiredKeys: ["serviceType"] }).map(dropUndefined);

/** A ListenerClass spec with junk in it: what admission or the status must refuse. */
const hostileClassSpec = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.record({
    serviceType: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("ClusterIP", "NodePort", "LoadBalancer") }, { weight: 1, arbitrary: nastyString() }),
    serviceAnnotations: maybe(fc.dictionary(fc.oneof(fc.constantFrom("example.com/x", "a/b/c", "", "UPPER/key"), nastyString()), nastyString(), { maxKeys: 3 })),
    serviceExternalTrafficPolicy: maybe(fc.oneof(fc.constantFrom("Cluster", "Local"), nastyString())),
    loadBalancerClass: maybe(fc.oneof(fc.constantFrom("example.com/lb", "not a class"), nastyString())),
    loadBalancerAllocateNodePorts: maybe(fc.boolean()),
    preferredAddressType: maybe(fc.oneof(fc.constantFrom("IP", "Hostname", "HostnameConservative"), nastyString())),
    nodeAddressTypes: maybe(fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...NODE_ADDRESS_TYPES) }, { weight: 1, arbitrary: nastyString() }), { maxLength: 7 })),
    nodeAddressSelection: maybe(fc.oneof(fc.constantFrom("First", "OnePerFamily", "All"), nastyString())),
    pinnedNodePorts: maybe(fc.boolean()),
    pinnedNodeLossRecovery: maybe(fc.boolean()),
    pinnedNodeLossGracePeriod: maybe(fc.oneof(fc.constantFrom("10m", "1h30m", "0s", "-5m", "10 minutes", ""), nastyString())),
    serviceOverrides: maybe(fc.oneof(
      fc.constant({ spec: { type: "ExternalName" } }),
      fc.record({ spec: fc.record({ sessionAffinity: fc.constantFrom("ClientIP", "None", "bogus") }) }),
      fc.record({ metadata: fc.record({ labels: fc.dictionary(nastyString(), nastyString(), { maxKeys: 2 }) }) }),
      fc.record({ spec: fc.record({ ports: fc.constant([{ port: 1, name: "x" }]) }) }),
      fc.object({ maxDepth: 2, maxKeys: 3 })
    ))
  }, { requiredKeys: ["serviceType"] }).map(dropUndefined);

export const listenerClassSpec = (): fc.Arbitrary<Record<string, unknown>> => fc.oneof(cleanClassSpec(), hostileClassSpec());

const port = fc.record({
  name: fc.oneof({ weight: 12, arbitrary: fc.constantFrom("http", "https", "kafka", "a-b", "web-ui") }, { weight: 1, arbitrary: nastyString() }),
  port: fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 1, max: 65_535 }) }, { weight: 1, arbitrary: fc.integer({ min: -10, max: 100_000 }) }),
  protocol: maybe(fc.oneof({ weight: 12, arbitrary: fc.constantFrom("TCP", "UDP", "SCTP") }, { weight: 1, arbitrary: nastyString() }))
}).map(dropUndefined);

/** A Listener spec naming `className` (or another class, or none): clean half the time. */
export const listenerSpec = (className: string): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    fc.record({ className: fc.constant(className), ports: fc.uniqueArray(cleanPort, { maxLength: 3, selector: (p) => p.name }) }),
    hostileListenerSpec(className)
  );

const cleanPort = fc.record({ name: fc.constantFrom("http", "https", "kafka", "a-b", "web-ui"), port: fc.integer({ min: 1, max: 65_535 }) });

const hostileListenerSpec = (className: string): fc.Arbitrary<Record<string, unknown>> =>
  fc.record({
    className: fc.oneof({ weight: 8, arbitrary: fc.constant(className) }, { weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: nastyString() }),
    ports: maybe(fc.uniqueArray(port, { maxLength: 4, selector: (p) => p["name"] })),
    extraPodSelectorLabels: maybe(fc.dictionary(nastyString(), nastyString(), { maxKeys: 2 })),
    publishNotReadyAddresses: maybe(fc.boolean()),
    objectOverrides: maybe(fc.array(fc.oneof(
      fc.record({ apiVersion: fc.constant("v1"), kind: fc.constant("Service"), metadata: fc.record({ name: nastyString(), namespace: fc.constant("faults") }), spec: fc.object({ maxDepth: 1, maxKeys: 2 }) }),
      fc.object({ maxDepth: 2, maxKeys: 3 })
    ), { maxLength: 2 }))
  }).map(dropUndefined);

export interface ApiCase {
  readonly classSpec: Record<string, unknown>;
  readonly listenerSpec: Record<string, unknown>;
  readonly nodeAddresses: Array<{ type: string; address: string }>;
  readonly nodeAddressOverride: string | undefined;
  readonly ingress: Array<Record<string, unknown>>;
}

export const apiCase = (className: string): fc.Arbitrary<ApiCase> =>
  fc.record({
    classSpec: listenerClassSpec(),
    listenerSpec: listenerSpec(className),
    nodeAddresses: nodeAddresses(),
    nodeAddressOverride: nodeAddressOverride(),
    ingress: loadBalancerIngress()
  });

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
