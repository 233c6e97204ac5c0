/**
 * Stands in for `undici` in the bundle (`npm run bundle` aliases it here). client-node's
 * KubeConfig imports undici only for `applyToFetchOptions` and proxy dispatchers; we call
 * `applyToHTTPSOptions` and refuse `proxy-url` (kubeconfig.ts), so undici is never
 * constructed — and leaving it out takes 1.2 MB off the image (docs/images.md). Should a
 * later client-node call it on our path, the error names the cause instead of misbehaving.
 */
const notBundled = (name: string): never => {
  throw new Error(`undici.${name} is not part of listener-operator's bundle (adapters/http/undiciNotBundled.ts): the kubeconfig path reached client-node's fetch dispatcher`)
}

export class Agent {
  constructor() {
    notBundled("Agent")
  }
}

export class ProxyAgent {
  constructor() {
    notBundled("ProxyAgent")
  }
}

export const fetch = (): Promise<never> => Promise.reject(notBundled("fetch"))

export default { Agent, ProxyAgent, fetch }
