// Request counters per route template and per user, so tests can assert "no request was made".

export interface StatsReport {
  since: string;
  total: number;
  /** Keyed by `METHOD /route/:template`, e.g. `GET /jobs/:id`; unknown paths count under `METHOD (unmatched)`. */
  byRoute: Record<string, number>;
  /** Keyed by user id (see userIdForApiKey); requests without a valid key count under `anonymous`. */
  byUser: Record<string, number>;
  byUserRoute: Record<string, Record<string, number>>;
}

export class RequestStats {
  private since = new Date();
  private total = 0;
  private byRoute = new Map<string, number>();
  private byUser = new Map<string, Map<string, number>>();

  record(route: string, userId: string): void {
    this.total += 1;
    this.byRoute.set(route, (this.byRoute.get(route) ?? 0) + 1);
    let perUser = this.byUser.get(userId);
    if (!perUser) this.byUser.set(userId, (perUser = new Map()));
    perUser.set(route, (perUser.get(route) ?? 0) + 1);
  }

  reset(): void {
    this.since = new Date();
    this.total = 0;
    this.byRoute = new Map();
    this.byUser = new Map();
  }

  report(): StatsReport {
    const byUserRoute: Record<string, Record<string, number>> = {};
    const byUser: Record<string, number> = {};
    for (const [user, routes] of this.byUser) {
      byUserRoute[user] = Object.fromEntries(routes);
      byUser[user] = [...routes.values()].reduce((a, b) => a + b, 0);
    }
    return {
      since: this.since.toISOString(),
      total: this.total,
      byRoute: Object.fromEntries(this.byRoute),
      byUser,
      byUserRoute,
    };
  }
}
