import { defineConfig } from "vitest/config";
import base from "./vitest.config";
const allow = { server: { fs: { allow: ["/work"] } } };
export default defineConfig({
  ...base,
  ...allow,
  test: { ...base.test, projects: (base.test!.projects as object[]).map((p) => ({ ...p, ...allow })) },
});
