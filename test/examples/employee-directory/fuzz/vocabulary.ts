import { buildSchema, type Resource, type ResourceSchema } from '../../../../core/index.ts';

/** One Resource's names, as a client could learn them from `schema.json`. */
export interface ResourceVocabulary {
  type: string;
  /** `{ns}/{type}`. */
  path: string;
  attributes: Array<{ name: string; type: string; writable: boolean | 'guarded' }>;
  extraAttributes: string[];
  filters: Array<{ name: string; type: string; operators: string[]; allow?: unknown[] }>;
  sorts: string[];
  relationships: Array<{ name: string; types: string[]; toMany: boolean; guarded: boolean }>;
  stats: Array<{ name: string; calculations: string[] }>;
  actions: string[];
}

export interface Vocabulary {
  resources: ResourceVocabulary[];
  types: string[];
  /** Every attribute, filter, relationship and stat name of every Resource. */
  names: string[];
  operators: string[];
  calculations: string[];
}

const TO_ONE = new Set(['belongs_to', 'has_one', 'polymorphic_belongs_to']);

/**
 * The example's real vocabulary, read from its Resources through the schema
 * builder, so the fuzzer follows the application as it changes: requests built
 * from real names get past the first "unknown filter" check and reach the
 * adapter and the database.
 */
export function vocabularyOf(resources: ReadonlyArray<typeof Resource>): Vocabulary {
  const schema = buildSchema(resources);
  const typeOfName = new Map(schema.resources.map((r) => [r.name, r.type]));
  // a polymorphic parent's records are written as one of its children
  const childTypes = new Map(schema.resources.map((r) => [r.type, r.children.map((c) => typeOfName.get(c) ?? c)]));
  const list = schema.resources.map((r): ResourceVocabulary => {
    const endpoint = Object.entries(schema.endpoints).find(([, e]) => Object.values(e.actions).some((a) => a.resource === r.name));
    return {
      type: r.type,
      path: endpoint?.[0] ?? `/api/v1/${r.type}`,
      attributes: Object.entries(r.attributes).map(([name, a]) => ({ name, type: a.type, writable: a.writable })),
      extraAttributes: Object.keys(r.extra_attributes),
      filters: Object.entries(r.filters).map(([name, f]) => ({ name, type: f.type, operators: f.operators, allow: f.allow })),
      sorts: Object.keys(r.sorts),
      relationships: relationshipsOf(r, typeOfName, childTypes),
      stats: Object.entries(r.stats).map(([name, calculations]) => ({ name, calculations })),
      actions: endpoint ? Object.keys(endpoint[1].actions) : [],
    };
  });
  const unique = (values: string[]) => [...new Set(values)].sort();
  return {
    resources: list,
    types: list.map((r) => r.type),
    names: unique(list.flatMap((r) => [...r.attributes.map((a) => a.name), ...r.filters.map((f) => f.name), ...r.relationships.map((x) => x.name), ...r.stats.map((s) => s.name)])),
    operators: unique(list.flatMap((r) => r.filters.flatMap((f) => f.operators))),
    calculations: unique(list.flatMap((r) => r.stats.flatMap((s) => s.calculations))),
  };
}

function relationshipsOf(resource: ResourceSchema, typeOfName: Map<string, string>, childTypes: Map<string, string[]>): ResourceVocabulary['relationships'] {
  return Object.entries(resource.relationships).map(([name, r]) => {
    const names = r.resources ?? (r.resource ? [r.resource] : []);
    const types = names.map((n) => typeOfName.get(n) ?? n).flatMap((t) => [t, ...(childTypes.get(t) ?? [])]);
    return { name, types, toMany: !TO_ONE.has(r.type), guarded: r.guard === true };
  });
}

export function resourceByType(vocabulary: Vocabulary, type: string): ResourceVocabulary | undefined {
  return vocabulary.resources.find((r) => r.type === type);
}
