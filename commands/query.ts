import { BUILT_IN_OPERATORS, configure, muralConfig, parseQueryString, withContext, withDatabaseLog, type DatabaseEvent, type MuralContext, type PageValue, type QueryParams, type Resource, type ResourceProxy } from '../core/index.ts';
import { findResource } from './find-resource.ts';
import { CommandError, type CommandContext, type CommandDefinition } from './host/command.ts';
import { count } from './host/plural.ts';
import { pageSummary, withTotal, type TotalSource } from './query-summary.ts';
import { renderTable } from './query-table.ts';

type ResourceClass = typeof Resource;

/**
 * `age.gte=30` → `{ age: { gte: '30' } }`; `positions.title=x` stays a deep
 * filter. The URL form users copy from their API (`age[gte]=30`, or the whole
 * `filter[age][gte]=30`) is read exactly as the HTTP layer reads it.
 */
function filterParams(resource: ResourceClass, entries: string[]): Record<string, unknown> {
  // keys come from the command line: a prototype-free map keeps `__proto__` an ordinary name
  const filter = Object.create(null) as Record<string, unknown>;
  for (const entry of entries) {
    const at = entry.indexOf('=');
    if (at < 1) throw new CommandError(`--filter takes name=value, name.operator=value or name[operator]=value, got "${entry}"`);
    const key = entry.slice(0, at);
    if (key.includes('[')) {
      mergeFilters(filter, urlFilter(key, entry.slice(at)));
      continue;
    }
    const value = entry.slice(at + 1);
    const related = /^(has|has_no)\.(.+)$/.exec(key);
    if (related) {
      mergeFilters(filter, { [related[1]!]: relatedFilter(related[2]!, value) });
      continue;
    }
    const dot = key.lastIndexOf('.');
    const base = key.slice(0, dot);
    // `nme.eq` names an operator of a filter that does not exist: reported as the unknown filter "nme", not a deep filter
    if (dot > 0 && (resource.config.attributes.has(base) || (!base.includes('.') && isOperator(key.slice(dot + 1))))) {
      filter[base] = { ...(filter[base] as object | undefined), [key.slice(dot + 1)]: value };
    } else {
      filter[key] = value;
    }
  }
  return filter;
}

/**
 * `has.positions.title=x` → `{ has: { 'positions.title': 'x' } }`; a last
 * segment naming a built-in operator (`has.positions.rank.gte=3`) is one.
 */
function relatedFilter(path: string, value: string): Record<string, unknown> {
  const dot = path.lastIndexOf('.');
  const last = path.slice(dot + 1);
  return dot > 0 && path.slice(0, dot).includes('.') && isOperator(last) ? { [path.slice(0, dot)]: { [last]: value } } : { [path]: value };
}

function isOperator(name: string): boolean {
  return (BUILT_IN_OPERATORS as readonly string[]).includes(name.replace(/^not_/, ''));
}

/** `age[gte]` or `filter[age][gte]`, with its `=value`, parsed as a query string parameter. */
function urlFilter(key: string, assignment: string): Record<string, unknown> {
  const bracket = key.indexOf('[');
  const parameter = key.startsWith('filter[') ? key : `filter[${key.slice(0, bracket)}]${key.slice(bracket)}`;
  const parsed = parseQueryString(`${parameter}${assignment}`).filter;
  if (!parsed) throw new CommandError(`--filter cannot read "${key}${assignment}" as a URL parameter`);
  return parsed;
}

/** Operators given for the same filter in several --filter options are ANDed, as in a URL; `has` maps merge one level deeper. */
function mergeFilters(target: Record<string, unknown>, source: Record<string, unknown>, depth = 0): void {
  for (const [name, value] of Object.entries(source)) {
    const existing = target[name];
    const isMap = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (isMap(existing) && isMap(value)) {
      const merged = Object.assign(Object.create(null), existing) as Record<string, unknown>;
      if (depth < 1) mergeFilters(merged, value as Record<string, unknown>, depth + 1);
      else Object.assign(merged, value);
      target[name] = merged;
    } else if (isMap(value) && typeof existing === 'string') target[name] = Object.assign(Object.create(null), { eq: existing }, value);
    else target[name] = value;
  }
}

/** `employees=first_name,age` or `first_name,age` (the queried type). */
function typedLists(resource: ResourceClass, entries: string[] | undefined): Record<string, string> | undefined {
  if (!entries?.length) return undefined;
  return Object.fromEntries(entries.map((entry) => (entry.includes('=') ? (entry.split('=', 2) as [string, string]) : [resource.type, entry])));
}

function statParams(entries: string[] | undefined): Record<string, string> | undefined {
  if (!entries?.length) return undefined;
  const stats: Record<string, string> = {};
  for (const entry of entries) {
    const [name, calc] = entry.split('=', 2);
    if (!name || !calc) throw new CommandError(`--stats takes name=calculation, got "${entry}"`);
    stats[name] = stats[name] ? `${stats[name]},${calc}` : calc;
  }
  return stats;
}

export function queryParams(resource: ResourceClass, options: Record<string, unknown>): QueryParams {
  const params: QueryParams = {};
  const filter = filterParams(resource, (options.filter as string[] | undefined) ?? []);
  if (Object.keys(filter).length > 0) params.filter = filter;
  if (options.sort) params.sort = String(options.sort);
  if (options.include) params.include = String(options.include);
  if (options.page !== undefined || options.per !== undefined || options.after !== undefined || options.before !== undefined) {
    // text, as a URL carries it: the query stage refuses one that is not a whole number
    const text = (value: unknown) => String(value) as PageValue;
    params.page = {
      ...(options.page !== undefined ? { number: text(options.page) } : {}),
      ...(options.per !== undefined ? { size: text(options.per) } : {}),
      // `--after` alone starts cursor pagination at the first record, `--before` alone at the last
      ...(options.after !== undefined ? { after: options.after === true ? '' : String(options.after) } : {}),
      ...(options.before !== undefined ? { before: options.before === true ? '' : String(options.before) } : {}),
    };
  }
  const stats = statParams(options.stats as string[] | undefined);
  if (stats) params.stats = stats;
  const fields = typedLists(resource, options.fields as string[] | undefined);
  if (fields) params.fields = fields;
  const extra = typedLists(resource, options.extraFields as string[] | undefined);
  if (extra) params.extra_fields = extra;
  return params;
}

/** The key `mural query` seals cursors with when none is configured (MURAL_CURSOR_SECRET). */
const CLI_CURSOR_SECRET = 'mural query: cursors of a local command line';

export const query: CommandDefinition = {
  name: 'query',
  description: 'Run a query in-process and print the records',
  arguments: ['<resource>'],
  options: [
    { flags: '--filter <filter>', description: "name=value, name.operator=value or name[operator]=value as in a URL (repeatable)", repeatable: true },
    { flags: '--sort <sort>', description: 'e.g. -age,last_name' },
    { flags: '--include <include>', description: 'relationships to sideload, e.g. positions.department' },
    { flags: '--page <number>', description: 'page number' },
    { flags: '--per <size>', description: 'page size' },
    { flags: '--after [cursor]', description: 'cursor pagination: the records after this cursor; alone, from the first record' },
    { flags: '--before [cursor]', description: 'cursor pagination: the records before this cursor; alone, up to the last record' },
    { flags: '--stats <stat>', description: 'name=calculation (repeatable)', repeatable: true },
    { flags: '--fields <fields>', description: 'type=a,b or a,b for the queried type (repeatable)', repeatable: true },
    { flags: '--extra-fields <fields>', description: 'type=a,b or a,b (repeatable)', repeatable: true },
    { flags: '--format <format>', description: 'table, json or jsonapi', defaultValue: 'table' },
    { flags: '--timings', description: 'also print each database operation the query ran, with its time' },
    { flags: '--context <json>', description: 'run as someone: the request context, a JSON object, that guards and row rules read' },
  ],
  examples: [
    'mural query employees --filter first_name=Ada',
    'mural query employees --filter age.gte=60 --sort -age --per 5 --stats age=average',
    "mural query employees --filter 'age[gte]=60' --filter 'positions.title[prefix]=Eng'",
    'mural query employees --include positions.department --fields employees=first_name --format jsonapi',
    'mural query employees --sort -age --per 10 --after',
    'mural query employees --sort -age --per 10 --after <the next cursor it printed>',
    'mural query employees --include positions.department --timings',
    `mural query employees --context '{"role":"admin"}'`,
  ],
  run(context, [name], options) {
    return withContext(contextOption(options.context), () => runQuery(context, name!, options));
  },
};

/**
 * `--context`: a JSON object, as an app's `context` function would build it
 * from a request. Without it, the query runs with an empty context, and
 * rules naming a context value admit nothing.
 */
function contextOption(text: unknown): MuralContext {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(text));
  } catch (error) {
    throw new CommandError(`--context must be a JSON object: ${(error as Error).message}`, 2);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CommandError('--context must be a JSON object, such as {"role":"admin"}', 2);
  return parsed as MuralContext;
}

async function runQuery(context: CommandContext, name: string, options: Record<string, unknown>): Promise<number> {
  // each run is a new process: a random key per process would refuse the cursor the last run printed.
  // The CLI reads its own database directly, so a fixed key guards nothing a server's key would.
  if (!muralConfig.cursorSecret) configure({ cursorSecret: CLI_CURSOR_SECRET });
  const resource = findResource(await context.resources(), name);
  const format = String(options.format);
  const params = queryParams(resource, options);
  const total = format === 'table' ? withTotal(resource, params) : 'unknown';
  const proxy = resource.all(params);
  const log: DatabaseEvent[] = [];
  const render = () => renderAs(proxy, format, { resource, total, options });
  context.io.out(await (options.timings ? withDatabaseLog(log, render) : render()));
  const cursors = await proxy.cursors;
  // beside JSON on stderr, so that stdout stays one document
  const print = (text: string) => (format === 'table' ? context.io.out(text) : context.io.err(text));
  if (cursors) print(`next cursor: ${cursors.next ?? '(none: last page)'}\nprev cursor: ${cursors.prev ?? '(none: first page)'}`);
  if (options.timings) print(timingLines(log));
  return 0;
}

/** What a table shows besides the document: the included records' places, and what page of how many. */
interface TableInput {
  resource: ResourceClass;
  total: TotalSource;
  options: Record<string, unknown>;
}

async function renderAs(proxy: ResourceProxy, format: string, table: TableInput): Promise<string> {
  if (format === 'json') return JSON.stringify(await proxy.toJson(), null, 2);
  if (format === 'jsonapi') return JSON.stringify(await proxy.toJsonapi(), null, 2);
  if (format !== 'table') throw new CommandError(`--format must be table, json or jsonapi, not "${format}"`, 2);
  const { resource, total, options } = table;
  const document = await proxy.toJsonapi();
  const cursor = options.after !== undefined || options.before !== undefined;
  const summary = pageSummary(document, resource, total, { number: options.page, size: options.per, cursor });
  return renderTable(document, options.include === undefined ? undefined : String(options.include), summary);
}

/** `--timings`: one line per database operation, in the order each finished. */
function timingLines(log: readonly DatabaseEvent[]): string {
  const rows = log.map((e) => [`${e.resource} ${e.operation}`, e.records === undefined ? '' : count(e.records, 'record'), `${e.duration.toFixed(2)} ms`]);
  const widths = [0, 1].map((i) => Math.max(0, ...rows.map((r) => r[i]!.length)));
  const lines = rows.map(([what, records, time]) => `  ${what!.padEnd(widths[0]!)}  ${records!.padStart(widths[1]!)}  ${time}`);
  return [`database: ${count(log.length, 'operation')}`, ...lines].join('\n');
}
