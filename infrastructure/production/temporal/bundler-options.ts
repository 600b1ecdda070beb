import { fileURLToPath } from "node:url";
import type { BundleOptions } from "@temporalio/worker";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The repository's import aliases (tsconfig "paths"), for Temporal's webpack bundle of the workflow code. */
export const workflowAliases: Record<string, string> = {
  "#application": `${root}application`,
  "#domain": `${root}domain`,
  "#workflows": `${root}workflows`,
};

/** The real entry module: every definition of workflows/index.ts. */
export const workflowsPath = fileURLToPath(new URL("../../../workflows/temporal/index.ts", import.meta.url));

/**
 * Options for bundleWorkflowCode / Worker.create: the aliases, and nothing else
 * allowed in. Workflow code that imports Node modules or infrastructure fails
 * the bundle (and so CI) instead of failing in production.
 */
export function workflowBundleOptions(path: string = workflowsPath): Pick<BundleOptions, "workflowsPath" | "webpackConfigHook"> {
  return {
    workflowsPath: path,
    webpackConfigHook: (config) => ({
      ...config,
      resolve: {
        ...config.resolve,
        alias: {
          ...(typeof config.resolve?.alias === "object" && !Array.isArray(config.resolve.alias) ? config.resolve.alias : {}),
          ...workflowAliases,
        },
      },
    }),
  };
}
