/** Remix 2 classic compiler. Server code outside app/ (domain, application,
 * infrastructure, projections, workflows) is bundled through the `#…` imports. */
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverDependenciesToBundle: [/^radix-ui/, /^@radix-ui\//],
  // Native and server-only packages stay external and load from node_modules.
  browserNodeBuiltinsPolyfill: { modules: {} },
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
