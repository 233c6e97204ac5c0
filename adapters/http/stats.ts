/**
 * Client-side request counts, per verb and per `verb resource[/subresource]`, so tests and
 * benchmarks can see what the adapter sent (the benchmark also reads the API server's own
 * `apiserver_request_total`). Every HTTP request sent counts once, failed or not.
 */
export interface RequestStats {
  readonly total: number
  /** e.g. `{ get: 3, apply: 1, watch: 2 }` */
  readonly byVerb: Readonly<Record<string, number>>
  /** e.g. `{ "apply services": 1, "patch listeners.listeners.stackable.tech/status": 1 }` */
  readonly byVerbResource: Readonly<Record<string, number>>
}

export class RequestCounter {
  private total = 0
  private byVerb = new Map<string, number>()
  private byVerbResource = new Map<string, number>()

  count(verb: string, resource: string): void {
    this.total += 1
    this.byVerb.set(verb, (this.byVerb.get(verb) ?? 0) + 1)
    const key = `${verb} ${resource}`
    this.byVerbResource.set(key, (this.byVerbResource.get(key) ?? 0) + 1)
  }

  snapshot(): RequestStats {
    return {
      total: this.total,
      byVerb: Object.fromEntries(this.byVerb),
      byVerbResource: Object.fromEntries(this.byVerbResource)
    }
  }

  reset(): void {
    this.total = 0
    this.byVerb = new Map()
    this.byVerbResource = new Map()
  }
}
