// Mounts Scalar's API reference on /api/docs (decisions 221, 262). A file, not an inline script, so the page's
// Content-Security-Policy allows scripts from this origin only. Not #api-reference: the bundle mounts a second,
// default-configured reference on an element of that id by itself.
Scalar.createApiReference("#docuchat-api-reference", {
  url: "/api/v1/openapi.json",
  // Our own assets only: no web fonts, no telemetry, no Scalar agent (it searches Scalar's registry through their proxy).
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  // Scalar's own menus (Developer Tools, Configure, Share, Deploy) show on localhost by default: never here.
  showDeveloperTools: "never",
  documentDownloadType: "json",
  metaData: { title: "DocuChat API" },
  favicon: "/favicon.svg",
  // The app has one light theme; the reference wears it, with text at 4.5:1 or more on every background it uses.
  forceDarkModeState: "light",
  hideDarkModeToggle: true,
  customCss: `
    .light-mode {
      --scalar-color-1: #1c2024;
      --scalar-color-2: #4f5661;
      --scalar-color-3: #5c626b;
      --scalar-color-accent: #3451b2;
      --scalar-background-accent: #3e63dd14;
      --scalar-color-green: #18794e;
      --scalar-color-red: #c32026;
      --scalar-color-blue: #0b67bd;
      --scalar-color-orange: #b54400;
      --scalar-color-yellow: #8a5300;
      --scalar-color-purple: #7a3fb0;
      --scalar-link-color: #3451b2;
      --scalar-sidebar-color-2: #4f5661;
      --scalar-sidebar-search-color: #5c626b;
      --scalar-button-1: #3e63dd;
      --scalar-button-1-hover: #3451b2;
      --scalar-button-1-color: #fff;
    }
  `,
});
