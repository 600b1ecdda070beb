import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const alias = {
  "#app": here("./app"),
  "#domain": here("./domain"),
  "#application": here("./application"),
  "#infrastructure": here("./infrastructure"),
  "#projections": here("./projections"),
  "#workflows": here("./workflows"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "{domain,application,infrastructure,projections,workflows,app}/**/*.test.{ts,tsx}",
            "tests/{contracts,integration,eval}/**/*.test.ts",
          ],
          environment: "node",
          pool: "forks",
          testTimeout: 30_000,
          setupFiles: ["reflect-metadata"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          setupFiles: ["reflect-metadata"],
        },
      },
    ],
  },
});
