import { describeRule, resolveGuard, type Guard, type Resource } from '../core/index.ts';
import type { CommandDefinition } from './host/command.ts';
import { formatTable } from './table.ts';

interface GuardRow {
  resource: string;
  kind: 'resource' | 'rule' | 'attribute' | 'relationship' | 'filter' | 'sort';
  name: string;
  flag: string;
  guard: string;
}

/** Every guard of every Resource (attribute and relationship flags, filters and sorts) and every row rule, as `kind: rule` rows naming the action and the rule. */
export function listGuards(resources: ReadonlyArray<typeof Resource>): GuardRow[] {
  const rows: GuardRow[] = [];
  const label = (resource: typeof Resource, guard: Guard) => resolveGuard(guard, resource.prototype, resource.name).label;
  for (const resource of [...resources].filter((r) => !r.abstractClass).sort((a, b) => a.name.localeCompare(b.name))) {
    const add = (kind: GuardRow['kind'], name: string, flag: string, guard: Guard | 'required') => {
      if (typeof guard === 'boolean' || guard === 'required') return;
      rows.push({ resource: resource.name, kind, name, flag, guard: guardLabel(resource, guard, label) });
    };
    // a Resource-level guard: `name` is the type, `flag` the actions it covers
    for (const { guard, actions } of resource.config.guards) add('resource', resource.type, actions.join(','), guard);
    for (const { action, rule } of resource.config.rules) rows.push({ resource: resource.name, kind: 'rule', name: action, flag: 'allow', guard: describeRule(rule) });
    for (const relationship of resource.config.relationships.values()) {
      add('relationship', relationship.name, 'readable', relationship.readable);
      add('relationship', relationship.name, 'writable', relationship.writable);
    }
    for (const attribute of resource.config.attributes.values()) {
      add('attribute', attribute.name, 'readable', attribute.readable);
      add('attribute', attribute.name, 'writable', attribute.writable);
      add('sort', attribute.name, 'sortable', attribute.sortable);
      add('filter', attribute.name, 'filterable', attribute.filterable);
    }
  }
  return rows;
}

function guardLabel(resource: typeof Resource, guard: Guard, label: (r: typeof Resource, g: Guard) => string): string {
  try {
    return label(resource, guard);
  } catch {
    return String(guard);
  }
}

export const guards: CommandDefinition = {
  name: 'guards',
  description: 'List every guarded Resource, relationship and attribute, with its guard, and every row rule',
  options: [{ flags: '--format <format>', description: 'table or json', defaultValue: 'table' }],
  examples: ['mural guards', 'mural guards --format json'],
  async run(context, _args, options) {
    const rows = listGuards(await context.resources());
    if (options.format === 'json') {
      context.io.out(JSON.stringify(rows, null, 2));
      return 0;
    }
    if (rows.length === 0) {
      context.io.out('No guards.');
      return 0;
    }
    context.io.out(formatTable(['resource', 'kind', 'name', 'flag', 'guard'], rows.map((r) => [r.resource, r.kind, r.name, r.flag, r.guard])));
    return 0;
  },
};
