import { ResourceConfigurationError } from '../errors/index.ts';
import type { Action } from '../resource/action.ts';
import { filterParameters } from './filter-parameters.ts';
import { includeSchema } from './include-paths.ts';
import type { DescribedResource, OpenApiInput, ResourceClass } from './openapi-input.ts';
import type { ParameterObject, Reference } from './openapi-types.ts';
import { componentKey, parameterRef } from './references.ts';
import { supportsCursors } from '../resource/cursor-support.ts';
import { TRASHED_FILTER } from '../resource/soft-delete.ts';

/** A comma list in one query parameter: `sort=-age,name`. */
const COMMA_LIST = { style: 'form', explode: false } as const;

type Parameters = Record<string, ParameterObject>;

/**
 * Every query parameter of every described Resource, stored once under
 * `components.parameters` and referred to by each endpoint that reads it
 * (index, show, writes, and the related-records endpoints to come).
 */
export function parameterComponents(input: OpenApiInput): Parameters {
  const parameters: Parameters = {};
  for (const described of input.resources) Object.assign(parameters, filtersOf(described), ownParameters(described));
  return parameters;
}

/**
 * The parameters an action reads: index everything; show what shapes one
 * record's document; create and update what shapes the written record's.
 */
export function queryParameters(input: OpenApiInput, resource: ResourceClass, action: Action): Reference[] {
  return parameterKeys(input, resource, action).map(parameterRef);
}

/**
 * What the endpoints of a relationship read, as the related Resources' index
 * does (a polymorphic belongs_to's targets merged by parameter name): the
 * related endpoint everything but pages when it answers one record or its
 * relationship's own block picks the records; the relationship endpoint,
 * answering identifiers, only filters, sort, pages and stats.
 */
export function relatedParameters(input: OpenApiInput, targets: readonly ResourceClass[], options: { paged: boolean; identifiers: boolean }): Reference[] {
  const byName = new Map<string, string>();
  for (const target of targets) {
    const c = input.describe(target).component;
    const keys = parameterKeys(input, target, 'index').filter((key) => {
      if (key === `${c}.page.number` || key === `${c}.page.size` || key === `${c}.page.after` || key === `${c}.page.before`) return options.paged;
      if (!options.identifiers) return true;
      return key === `${c}.sort` || key.startsWith(`${c}.filter.`) || key.startsWith(`${c}.stats.`);
    });
    for (const key of keys) {
      const name = parameterOf(input, key).name;
      if (!byName.has(name)) byName.set(name, key);
    }
  }
  return [...byName.values()].map(parameterRef);
}

function parameterKeys(input: OpenApiInput, resource: ResourceClass, action: Action): string[] {
  const own = input.describe(resource);
  // a soft-deleting Resource's update (a restore) and destroy (a purge) may address the trash
  const trash = resource.config.softDelete ? Object.entries(filtersOf(own)).filter(([, parameter]) => parameter.name === `filter[${TRASHED_FILTER}]`).map(([key]) => key) : [];
  if (action === 'destroy') return trash;
  const related = byType(input.reachable(resource));
  const c = own.component;
  const shaping = [
    `${c}.include`,
    ...related.map((r) => `${r.component}.fields`),
    ...related.map((r) => `${r.component}.extra-fields`),
    ...related.map((r) => `${r.component}.meta-fields`),
  ];
  const showing = [...shaping, ...Object.keys(own.schema.stats).map((name) => componentKey(c, 'stats', name)), ...related.map((r) => `${r.component}.page.per-parent`)];
  const keys =
    action === 'create' ? shaping
    : action === 'update' ? [...shaping, ...trash]
    : action === 'show' ? showing
    : [...Object.keys(filtersOf(own)), `${c}.sort`, `${c}.page.number`, `${c}.page.size`, ...cursorKeys(own), ...showing];
  // only what exists: a Resource without relationships takes no include, one without extra attributes no extra_fields
  const available = new Set([own, ...related].flatMap((r) => [...Object.keys(ownParameters(r)), ...Object.keys(filtersOf(r))]));
  return keys.filter((key) => available.has(key));
}

function parameterOf(input: OpenApiInput, key: string): ParameterObject {
  for (const described of input.resources) {
    if (!key.startsWith(`${described.component}.`)) continue;
    const found = ownParameters(described)[key] ?? filtersOf(described)[key];
    if (found) return found;
  }
  throw new ResourceConfigurationError(`No query parameter ${key} was described`);
}

// parameters are built once per Resource and document: each operation refers to them again
const owned = new WeakMap<DescribedResource, Parameters>();
const filters = new WeakMap<DescribedResource, Parameters>();

function filtersOf(described: DescribedResource): Parameters {
  let found = filters.get(described);
  if (!found) filters.set(described, (found = filterParameters(described)));
  return found;
}

function ownParameters(described: DescribedResource): Parameters {
  let found = owned.get(described);
  if (!found) owned.set(described, (found = { ...sortParameter(described), ...includeParameter(described), ...fieldParameters(described), ...statParameters(described), ...pageParameters(described) }));
  return found;
}

function sortParameter({ schema, component }: DescribedResource): Parameters {
  const sorts = Object.entries(schema.sorts).flatMap(([name, sort]) => [...(sort.only === 'desc' ? [] : [name]), ...(sort.only === 'asc' ? [] : [`-${name}`])]);
  if (sorts.length === 0) return {};
  const guarded = Object.entries(schema.sorts).filter(([, s]) => s.guard).map(([n]) => n);
  return {
    [`${component}.sort`]: {
      name: 'sort',
      in: 'query',
      description: `Sort order, a comma list; \`-\` sorts descending. An included relationship's records sort by its path (\`-positions.title\`).${guarded.length > 0 ? ` Guarded (400 unless the guard allows): ${guarded.join(', ')}.` : ''}`,
      ...COMMA_LIST,
      schema: { type: 'array', items: { anyOf: [{ enum: sorts }, { type: 'string', pattern: '^-?[^.,]+(\\.[^.,]+)+$' }] } },
    },
  };
}

function includeParameter({ resource, component, view }: DescribedResource): Parameters {
  const include = includeSchema(resource, view);
  if (!include) return {};
  return {
    [`${component}.include`]: {
      name: 'include',
      in: 'query',
      description: `Related records to include in \`included\`: dotted relationship paths, a comma list, at most ${resource.maxIncludeDepth} levels deep and ${resource.maxIncludes} relationships in all.`,
      ...COMMA_LIST,
      schema: { type: 'array', maxItems: resource.maxIncludes, items: include },
    },
  };
}

/** `fields[<type>]` and `extra_fields[<type>]`, named by type: an operation lists them for each type its response may hold. */
function fieldParameters({ resource: { type }, schema, component }: DescribedResource): Parameters {
  const fields = [...Object.keys(schema.attributes).filter((n) => schema.attributes[n]!.readable !== false), ...Object.keys(schema.relationships)];
  const extras = Object.keys(schema.extra_attributes);
  return {
    [`${component}.fields`]: {
      name: `fields[${type}]`,
      in: 'query',
      description: `Sparse fieldset: only these attributes and relationships of ${type} (an included relationship keeps its linkage).`,
      ...COMMA_LIST,
      schema: { type: 'array', items: { enum: fields } },
    },
    ...(extras.length > 0
      ? {
          [`${component}.extra-fields`]: {
            name: `extra_fields[${type}]`,
            in: 'query',
            description: `Extra attributes of ${type} to render, which are left out unless asked for.`,
            ...COMMA_LIST,
            schema: { type: 'array', items: { enum: extras } },
          },
        }
      : {}),
    [`${component}.meta-fields`]: {
      name: `meta_fields[${type}]`,
      in: 'query',
      description: `What each ${type} record carries in its meta: \`permissions\`, whether the caller may update and destroy it (its guards and row rules, computed in the records' own query).`,
      ...COMMA_LIST,
      schema: { type: 'array', items: { enum: ['permissions'] } },
    },
  };
}

function statParameters({ schema, component }: DescribedResource): Parameters {
  return Object.fromEntries(
    Object.entries(schema.stats).map(([name, calculations]) => [
      componentKey(component, 'stats', name),
      {
        name: `stats[${name}]`,
        in: 'query',
        description: `Calculations of ${name} over every matching record (not just the page), in \`meta.stats.${name}\`. Included records take \`stats[<type>][<name>]\`.`,
        ...COMMA_LIST,
        schema: { type: 'array', minItems: 1, items: { enum: calculations } },
      } satisfies ParameterObject,
    ]),
  );
}

function cursorKeys({ resource, component }: DescribedResource): string[] {
  return supportsCursors(resource) ? [`${component}.page.after`, `${component}.page.before`] : [];
}

const CURSOR = 'An opaque cursor from a `next` or `prev` link (cursor pagination); empty for the first page';

function pageParameters({ resource, component }: DescribedResource): Parameters {
  return {
    [`${component}.page.after`]: {
      name: 'page[after]',
      in: 'query',
      description: `${CURSOR}. The records after it in the sort; not with page[number] or page[before]. A cursor tampered with or read under another sort is a 400.`,
      schema: { type: 'string' },
    },
    [`${component}.page.before`]: {
      name: 'page[before]',
      in: 'query',
      description: `${CURSOR.replace('first', 'last')}. The records before it in the sort; not with page[number] or page[after].`,
      schema: { type: 'string' },
    },
    [`${component}.page.number`]: { name: 'page[number]', in: 'query', description: 'The page, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } },
    [`${component}.page.size`]: {
      name: 'page[size]',
      in: 'query',
      description: `Records per page; above ${resource.maxPageSize} is a 400 (\`meta.page.maxSize\` tells the maximum). At least 1 with a cursor.`,
      schema: { type: 'integer', minimum: 0, maximum: resource.maxPageSize, default: resource.defaultPageSize },
    },
    [`${component}.page.per-parent`]: {
      name: `page[${resource.type}][size]`,
      in: 'query',
      description: `When ${resource.type} records are included: at most this many per parent record.`,
      schema: { type: 'integer', minimum: 0, maximum: resource.maxPageSize },
    },
  };
}

/** One Resource per type: parameters are named by type, and a name may appear once per operation. */
function byType(resources: readonly DescribedResource[]): DescribedResource[] {
  const first = new Map<string, DescribedResource>();
  for (const described of resources) if (!first.has(described.resource.type)) first.set(described.resource.type, described);
  return [...first.values()].sort((a, b) => (a.resource.type < b.resource.type ? -1 : a.resource.type > b.resource.type ? 1 : 0));
}
