// Least privilege, checked (docs/security.md): the API calls a role made (the API server's
// audit log) against the RBAC rules it was given — calls no rule allows, and rules no call
// used. Pure: the caller reads the rules (ClusterRoles / Roles from the cluster) and the
// audit log.
import type { AuditEvent } from "./controlPlane.ts"

export interface PolicyRule {
  readonly apiGroups?: ReadonlyArray<string>
  readonly resources?: ReadonlyArray<string>
  readonly verbs: ReadonlyArray<string>
  readonly resourceNames?: ReadonlyArray<string>
  readonly nonResourceURLs?: ReadonlyArray<string>
}

/** One permission: `verb group/resource[/subresource]`, e.g. `patch core/pods`. */
export type Permission = string

const permission = (verb: string, group: string, resource: string): Permission => `${verb} ${group === "" ? "core" : group}/${resource}`

/** Every single permission a set of rules grants. */
export const permissionsOf = (rules: ReadonlyArray<PolicyRule>): ReadonlySet<Permission> => {
  const out = new Set<Permission>()
  for (const rule of rules) {
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        for (const verb of rule.verbs) out.add(permission(verb, group, resource))
      }
    }
  }
  return out
}

/** The permission an audited request needed, or undefined for non-resource requests (discovery, /version). */
export const permissionOfCall = (event: AuditEvent): Permission | undefined => {
  const ref = event.objectRef
  if (ref?.resource === undefined) return undefined
  const resource = ref.subresource === undefined ? ref.resource : `${ref.resource}/${ref.subresource}`
  return permission(event.verb, ref.apiGroup ?? "", resource)
}

/** Granted to every authenticated user by the default roles (system:basic-user): not the chart's business. */
const SELF_REVIEWS = new Set([
  "create authentication.k8s.io/selfsubjectreviews",
  "create authorization.k8s.io/selfsubjectaccessreviews",
  "create authorization.k8s.io/selfsubjectrulesreviews"
])

/** The chart's rules name every group, resource and verb (no wildcards): an exact match. */
const allows = (granted: ReadonlySet<Permission>, needed: Permission): boolean => granted.has(needed)

export interface Coverage {
  /** Calls (permission → count) that no rule allows, or that the API server forbade. */
  readonly outside: ReadonlyMap<Permission, number>
  /** Calls per permission that a rule allows. */
  readonly used: ReadonlyMap<Permission, number>
  /** Permissions the rules grant that no call used. */
  readonly unused: ReadonlyArray<Permission>
}

/** Compare the calls of `username` in `events` with `rules`. */
export const coverage = (username: string, rules: ReadonlyArray<PolicyRule>, events: ReadonlyArray<AuditEvent>): Coverage => {
  const granted = permissionsOf(rules)
  const outside = new Map<Permission, number>()
  const used = new Map<Permission, number>()
  for (const event of events) {
    if (event.user.username !== username) continue
    const needed = permissionOfCall(event)
    if (needed === undefined || SELF_REVIEWS.has(needed)) continue
    const forbidden = event.annotations?.["authorization.k8s.io/decision"] === "forbid"
    // A server-side apply that created the object (201) is a patch that needed create too.
    const alsoCreate = event.verb === "patch" && event.responseStatus?.code === 201 ? [needed.replace(/^patch /u, "create ")] : []
    for (const permission of [needed, ...alsoCreate]) {
      const into = forbidden || !allows(granted, permission) ? outside : used
      into.set(permission, (into.get(permission) ?? 0) + 1)
    }
  }
  const unused = [...granted].filter((p) => !used.has(p)).sort()
  return { outside, used, unused }
}
