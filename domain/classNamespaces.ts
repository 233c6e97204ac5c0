/**
 * Which namespaces may use a ListenerClass (`spec.allowedNamespaces`, docs/security.md):
 * a list of namespace-name patterns in which `*` stands for any run of characters
 * (`kafka-*`). Unset: every namespace (the default, as upstream). The same rule is
 * enforced at admission by the chart's ValidatingAdmissionPolicy
 * (templates/class-namespaces-policy.yaml) and re-checked here by the controller for
 * Listeners that predate it.
 */

/** Namespace names are DNS labels; a pattern may also hold `*`. */
export const NAMESPACE_PATTERN_PATTERN = /^[a-z0-9*]([-a-z0-9*]{0,61}[a-z0-9*])?$/u

/** Whether `namespace` matches `pattern` (`*`: any run of characters, possibly empty). */
export const namespaceMatches = (pattern: string, namespace: string): boolean => {
  // Patterns hold only [a-z0-9*-] (the CRD refuses others), so '*' is the only metacharacter.
  const parts = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&"))
  return new RegExp(`^${parts.join(".*")}$`, "u").test(namespace)
}

/** Whether a class with these `allowedNamespaces` may be used in `namespace`. */
export const classAllowsNamespace = (allowedNamespaces: ReadonlyArray<string> | undefined, namespace: string): boolean =>
  allowedNamespaces === undefined || allowedNamespaces.some((pattern) => namespaceMatches(pattern, namespace))

/** The rule as refusals quote it, e.g. `spec.allowedNamespaces [kafka-*]`. */
export const allowedNamespacesRule = (allowedNamespaces: ReadonlyArray<string>): string =>
  `spec.allowedNamespaces [${allowedNamespaces.join(", ")}]`
