// Mounts Scalar's API reference on /api/docs (decision 221). A file, not an inline script, so the page's
// Content-Security-Policy allows scripts from this origin only. Not #api-reference: the bundle mounts a second,
// default-configured reference on an element of that id by itself.
Scalar.createApiReference("#docuchat-api-reference", {
  url: "/api/v1/openapi.json",
  // Our own assets only: no web fonts, no telemetry, no Scalar agent (it searches Scalar's registry through their proxy).
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  documentDownloadType: "json",
  metaData: { title: "DocuChat API" },
});
