import { Forbidden, ResourceConfigurationError } from '../errors/index.ts';
import { ALL_ACTIONS, type Action } from './action.ts';
import { resolveGuard, type Guard } from './guard.ts';
import { bumpRevision } from './revision.ts';

/** `guard(guard, { only | except })`: which actions a Resource-level guard covers. */
export interface ResourceGuardOptions {
  only?: readonly Action[];
  except?: readonly Action[];
}

/** One `guard(...)` declaration of a Resource. */
export interface ResourceGuardDefinition {
  readonly guard: Guard;
  readonly actions: readonly Action[];
}

/** The reads a relationship makes of its related records: both list and show. */
const READ_ACTIONS: readonly Action[] = ['index', 'show'];

/** The part of a Resource's config this file reads and writes (resource-config.ts holds the whole). */
interface GuardedConfig {
  readonly guards: ResourceGuardDefinition[];
}

export function declareResourceGuard(config: GuardedConfig, className: string, guard: Guard, options: ResourceGuardOptions = {}): void {
  const owner = `${className}.guard`;
  for (const action of [...(options.only ?? []), ...(options.except ?? [])]) {
    if (!ALL_ACTIONS.includes(action)) throw new ResourceConfigurationError(`${owner}: unknown action "${action}"; actions: ${ALL_ACTIONS.join(', ')}`);
  }
  if (options.only && options.except) throw new ResourceConfigurationError(`${owner}: give only: or except:, not both`);
  const actions = ALL_ACTIONS.filter((a) => (options.only ? options.only.includes(a) : !(options.except ?? []).includes(a)));
  bumpRevision();
  config.guards.push({ guard, actions });
}

type GuardedClass = { readonly name: string; readonly config: GuardedConfig; new (): object };

/**
 * Whether this request may perform `action` on the Resource: every guard
 * declared for the action must agree. Guards take no arguments (there is no
 * record yet) and read `this.context`.
 */
export function resourceAllows(resourceClass: GuardedClass, action: Action): boolean {
  const guards = resourceClass.config.guards;
  if (guards.length === 0) return true;
  let receiver: object | undefined;
  for (const { guard, actions } of guards) {
    if (!actions.includes(action)) continue;
    const resolved = resolveGuard(guard, resourceClass.prototype as object, `${resourceClass.name}.guard`);
    if (resolved.fixed === false) return false;
    if (resolved.fixed === undefined && !resolved.call((receiver ??= new resourceClass()))) return false;
  }
  return true;
}

/** Reading through a relationship (include, linkage, links) needs both `index` and `show`. */
export function resourceReadable(resourceClass: GuardedClass): boolean {
  return READ_ACTIONS.every((action) => resourceAllows(resourceClass, action));
}

/** Throws a 403 `forbidden` unless every given Resource allows the action. */
export function assertAllowed(resourceClasses: readonly GuardedClass[], action: Action, type: string): void {
  if (resourceClasses.some((r) => !resourceAllows(r, action))) throw new Forbidden(type, action);
}

/** The actions some guard covers, for the schema and `mural guards`. */
export function guardedActions(resourceClass: { readonly config: GuardedConfig }): Action[] {
  const covered = new Set(resourceClass.config.guards.filter((g) => g.guard !== true).flatMap((g) => g.actions));
  return ALL_ACTIONS.filter((a) => covered.has(a));
}
