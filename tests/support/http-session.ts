/**
 * A tiny browser for HTTP-level tests: a cookie jar per host:port (with path
 * scoping) and manual redirects, so every hop of a flow can be inspected.
 */
type StoredCookie = { name: string; value: string; path: string };

export class HttpSession {
  private readonly jars = new Map<string, StoredCookie[]>();

  cookies(url: string): StoredCookie[] {
    return this.jars.get(new URL(url).host) ?? [];
  }

  cookie(url: string, name: string): string | undefined {
    return this.cookies(url).find((c) => c.name === name)?.value;
  }

  setCookie(url: string, name: string, value: string, path = "/") {
    this.store(new URL(url), [`${name}=${value}; Path=${path}`]);
  }

  /** One request, no redirect following; stores cookies it sets. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.cookies(url)
      .filter((c) => target.pathname.startsWith(c.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    if (cookie) headers.set("Cookie", cookie);
    const response = await fetch(target, { ...init, headers, redirect: "manual" });
    this.store(target, response.headers.getSetCookie());
    return response;
  }

  /** Follows redirects (GET) until a non-redirect answer; returns it and the hops taken. */
  async follow(url: string, init: RequestInit = {}, maxHops = 15): Promise<{ response: Response; url: string; hops: string[] }> {
    let current = url;
    let response = await this.request(current, init);
    const hops = [current];
    for (let i = 0; i < maxHops && response.status >= 300 && response.status < 400; i++) {
      current = new URL(response.headers.get("location")!, current).href;
      hops.push(current);
      response = await this.request(current);
    }
    return { response, url: current, hops };
  }

  private store(target: URL, setCookies: string[]) {
    const jar = this.jars.get(target.host) ?? [];
    for (const header of setCookies) {
      const [pair, ...attributes] = header.split(";").map((p) => p.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttr = attributes.find((a) => a.toLowerCase().startsWith("path="));
      const path = pathAttr ? pathAttr.slice(5) : "/";
      const expired =
        attributes.some((a) => /^max-age=(0|-\d+)$/i.test(a)) ||
        attributes.some((a) => a.toLowerCase().startsWith("expires=") && Date.parse(a.slice(8)) < Date.now());
      const kept = jar.filter((c) => !(c.name === name && c.path === path));
      if (!expired && value !== "") kept.push({ name, value, path });
      jar.splice(0, jar.length, ...kept);
    }
    this.jars.set(target.host, jar);
  }
}

/** The CSRF token the root loader rendered into a page's forms. */
export function csrfFrom(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error("no CSRF field in the page");
  return match[1];
}
