// Typed loaders under single fetch (future.v3_singleFetch in remix.config.js).
import "@remix-run/node";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
