/**
 * The Temporal workflow entry module (`workflowsPath` of the worker): every
 * definition the context modules declare (sandbox-workflows.ts), the same
 * definitions the embedded runner uses, as the Temporal workflow type of the
 * same name.
 */
import { workflowDispatcher, type AnyDefinition } from "./definitions";
import { sandboxWorkflows } from "./sandbox-workflows";

export default workflowDispatcher(sandboxWorkflows as AnyDefinition[]);
