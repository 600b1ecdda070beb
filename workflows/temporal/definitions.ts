/**
 * Turns WorkflowDefinitions into Temporal workflow functions. Sandbox code:
 * imported by the workflow entry modules only.
 */
import { ApplicationFailure, workflowInfo } from "@temporalio/workflow";
import type { WorkflowDefinition } from "#application/ports/workflow";
import { createTemporalContext } from "./context";

/** Definitions registered by name; run is a method, so every WorkflowDefinition<I, O> fits. */
export type AnyDefinition = WorkflowDefinition<unknown, unknown>;

/** One Temporal workflow function running one definition. */
export function temporalWorkflow(definition: AnyDefinition): (input: unknown) => Promise<unknown> {
  return async (input: unknown) => definition.run(createTemporalContext(), input);
}

/**
 * The entry module's default export: Temporal calls it for every workflow type
 * without a named export, and it runs the definition whose name is that type.
 * Definition names ("account-deletion") are not JavaScript identifiers, so
 * this is how each one becomes a workflow type of the same name.
 */
export function workflowDispatcher(definitions: readonly AnyDefinition[]): (input: unknown) => Promise<unknown> {
  const byName = new Map<string, AnyDefinition>();
  for (const definition of definitions) {
    if (byName.has(definition.name)) throw new Error(`Two workflow definitions are named ${definition.name}`);
    byName.set(definition.name, definition);
  }
  return async (input: unknown) => {
    const type = workflowInfo().workflowType;
    const definition = byName.get(type);
    if (!definition) {
      throw ApplicationFailure.nonRetryable(`No workflow definition named ${type} in this worker's bundle`, "UnknownWorkflowType");
    }
    return temporalWorkflow(definition)(input);
  };
}
