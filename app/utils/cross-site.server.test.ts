import { describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE, crossSiteRefusal } from "./cross-site.server";

const own = { host: "docs.example.com", publicUrl: "https://docs.example.com" };

describe("a write from another website", () => {
  it("is refused with a clear message, whether the browser says so by Sec-Fetch-Site or only by Origin", () => {
    expect(crossSiteRefusal({ ...own, method: "POST", fetchSite: "cross-site", origin: "https://evil.example" })).toBe(CROSS_SITE_MESSAGE);
    expect(crossSiteRefusal({ ...own, method: "POST", fetchSite: "same-site", origin: "https://blog.example.com" })).toBe(CROSS_SITE_MESSAGE);
    expect(crossSiteRefusal({ ...own, method: "PUT", origin: "https://evil.example" })).toBe(CROSS_SITE_MESSAGE);
    expect(crossSiteRefusal({ ...own, method: "DELETE", origin: "null" })).toBe(CROSS_SITE_MESSAGE);
  });

  it("does not touch the app's own forms, links, or clients that are not browsers", () => {
    expect(crossSiteRefusal({ ...own, method: "POST", fetchSite: "same-origin", origin: "https://docs.example.com" })).toBeNull();
    expect(crossSiteRefusal({ ...own, method: "POST", origin: "https://docs.example.com" })).toBeNull();
    expect(crossSiteRefusal({ host: "127.0.0.1:3000", method: "POST", origin: "http://127.0.0.1:3000" })).toBeNull();
    expect(crossSiteRefusal({ ...own, method: "POST" })).toBeNull();
    expect(crossSiteRefusal({ ...own, method: "GET", fetchSite: "cross-site", origin: "https://evil.example" })).toBeNull();
  });

  it("accepts the public name behind a proxy whose Host header differs", () => {
    expect(crossSiteRefusal({ host: "app:3000", publicUrl: "https://docs.example.com", method: "POST", origin: "https://docs.example.com" })).toBeNull();
  });
});
