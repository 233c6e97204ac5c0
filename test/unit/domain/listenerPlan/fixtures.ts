/** Hand-built planner inputs shared by the listenerPlan tests. */
import type { ListenerClassInput, ListenerInput, NodeInput, ServiceType } from "../../../../domain/listenerPlan/index.ts"

export const UID = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
export const MOUNT_LABEL = "listener.stackable.tech/mnt.0b1c2d3e4f5061728394a5b6c7d8e9f0"

export const listener = (spec: Partial<ListenerInput["spec"]> = {}, labels?: Record<string, string>): ListenerInput => ({
  metadata: { name: "web", namespace: "apps", uid: UID, generation: 3, ...(labels ? { labels } : {}) },
  spec: { className: "cls", ports: [{ name: "http", port: 8080 }], ...spec }
})

export const listenerClass = (
  serviceType: ServiceType,
  spec: Partial<ListenerClassInput["spec"]> = {}
): ListenerClassInput => ({ spec: { serviceType, ...spec } })

export const node = (name: string, addresses: Record<string, string>): NodeInput => ({
  metadata: { name },
  status: { addresses: Object.entries(addresses).map(([type, address]) => ({ type, address })) }
})
