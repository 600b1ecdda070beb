import type { Projector } from "#application/ports/projection";
import type { Reactor } from "#application/ports/reactor";
import type { ActivityRegistry, JobHandlerRegistry, WorkflowDefinition } from "#application/ports/workflow";

/** A class the container builds (its constructor parameters carry @inject tokens). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ServiceClass<T = unknown> = new (...args: any[]) => T;

/** Resolves a service of the module (or of a module it depends on) from the container. */
export type Resolve = <T>(service: ServiceClass<T>) => T;

/**
 * Everything a bounded context brings to the running app, declared in one
 * place (docs/decisions/050). The container binds the services, runs the
 * projectors and reactors, registers the activities and workflows, and maps
 * the stream categories to the context's Kafka topic. Adding a context is
 * writing its module and adding it to `contextModules`.
 */
export interface ContextModule {
  /** The context's name, as in domain/, application/, projections/ (also its Kafka topic suffix). */
  readonly name: string;
  /** Stream id prefixes this context writes (`document` for `document-<id>`; `chat-layout` for `chat-layout-<id>`). */
  readonly streamCategories: readonly string[];
  /** Services and queries, bound to themselves as singletons. */
  readonly services: readonly ServiceClass[];
  /** Shared ports (application/shared) this context answers: the token resolves to one of its services. */
  readonly provides: readonly { token: symbol; service: ServiceClass }[];
  /** Read models this context owns. */
  readonly projectors: readonly Projector[];
  /** Side effects that follow events (starting a workflow, a reaction to another context's event); bound like services. */
  readonly reactors: readonly ServiceClass<Reactor>[];
  /** Durable workflows this context runs. */
  readonly workflows: readonly WorkflowDefinition<any, any>[];
  /** The activities its workflows call, by name (each workflow file types its contract). */
  readonly activities: (resolve: Resolve) => ActivityRegistry;
  /** Background jobs it runs on the job queue (embedded runner or BullMQ), by name. */
  readonly jobs: (resolve: Resolve) => JobHandlerRegistry;
}

/** Keeps the literal shape checked while letting each module say only what it has. */
export function defineContextModule(module: Partial<ContextModule> & Pick<ContextModule, "name" | "streamCategories" | "services">): ContextModule {
  return { provides: [], projectors: [], workflows: [], reactors: [], activities: () => ({}), jobs: () => ({}), ...module };
}

/** Stream category -> context, longest category first so `chat-layout-…` is not read as `chat`. */
export function streamContexts(modules: readonly ContextModule[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const module of modules) {
    for (const category of module.streamCategories) {
      if (map[category] && map[category] !== module.name) {
        throw new Error(`Stream category "${category}" is claimed by both ${map[category]} and ${module.name}`);
      }
      map[category] = module.name;
    }
  }
  return map;
}

/** Every module's activities in one registry; two contexts naming the same activity stop start-up. */
export function moduleActivities(modules: readonly ContextModule[], resolve: Resolve): ActivityRegistry {
  const registry: ActivityRegistry = {};
  for (const module of modules) {
    for (const [name, activity] of Object.entries(module.activities(resolve))) {
      if (registry[name]) throw new Error(`Activity "${name}" is registered twice (${module.name})`);
      registry[name] = activity;
    }
  }
  return registry;
}

/** Every module's job handlers in one registry; two contexts naming the same job stop start-up. */
export function moduleJobHandlers(modules: readonly ContextModule[], resolve: Resolve): JobHandlerRegistry {
  const registry: JobHandlerRegistry = {};
  for (const module of modules) {
    for (const [name, handler] of Object.entries(module.jobs(resolve))) {
      if (registry[name]) throw new Error(`Job "${name}" is registered twice (${module.name})`);
      registry[name] = handler;
    }
  }
  return registry;
}
