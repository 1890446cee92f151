/**
 * redirect_to is honoured only for the site's own origin or a configured allow list entry
 * (an exact URL, an origin, or "<url>/**" for every path under it); anything else falls back
 * to the site URL, so a link can never send a session to a foreign host.
 */
export class RedirectPolicy {
  private readonly origins = new Set<string>();
  private readonly exact = new Set<string>();
  private readonly prefixes: string[] = [];

  constructor(
    private readonly siteUrl: string,
    additional: string[],
  ) {
    this.origins.add(new URL(siteUrl).origin);
    for (const entry of additional) {
      if (entry.endsWith('/**')) {
        this.prefixes.push(entry.slice(0, -2));
        continue;
      }
      const u = new URL(entry);
      if ((u.pathname === '/' || u.pathname === '') && !u.search && !entry.replace(/\/$/, '').includes('/', u.origin.length)) {
        this.origins.add(u.origin);
      } else {
        this.exact.add(u.href);
      }
    }
  }

  /** Origins allowed for CORS: the site and every allow-list entry. */
  corsOrigins(): string[] {
    return [...this.origins, ...[...this.exact, ...this.prefixes].map((u) => new URL(u).origin)];
  }

  resolve(requested: string | null | undefined): string {
    if (!requested) return this.siteUrl;
    let u: URL;
    try {
      u = new URL(requested);
    } catch {
      return this.siteUrl;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return this.siteUrl;
    if (u.username || u.password) return this.siteUrl;
    if (this.origins.has(u.origin)) return u.href;
    if (this.exact.has(u.href)) return u.href;
    if (this.prefixes.some((p) => u.href.startsWith(p))) return u.href;
    return this.siteUrl;
  }
}
