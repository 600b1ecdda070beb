/**
 * The Temporal workflow entry module (`workflowsPath` of the worker): every
 * definition of workflows/index.ts `allWorkflows`, the same definitions the
 * embedded runner uses, as the Temporal workflow type of the same name.
 */
import { allWorkflows } from "#workflows/index";
import { workflowDispatcher, type AnyDefinition } from "./definitions";

export default workflowDispatcher(allWorkflows as AnyDefinition[]);
