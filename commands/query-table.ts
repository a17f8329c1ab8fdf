import type { JsonApiDocument, ResourceObject } from '../core/index.ts';
import { formatTable } from './table.ts';

/** `positions.department,teams` → positions → department, teams: what to show under each record. */
type IncludeTree = Map<string, IncludeTree>;

export function includeTree(include: string | undefined): IncludeTree {
  const tree: IncludeTree = new Map();
  for (const path of (include ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    let level = tree;
    for (const name of path.split('.')) {
      if (!level.has(name)) level.set(name, new Map());
      level = level.get(name)!;
    }
  }
  return tree;
}

const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
const key = (ref: { type: string; id: string }) => `${ref.type}:${ref.id}`;
/** Below a row, its related records start this far right of the row. */
const NESTED = '    ';

type Nested = (object: ResourceObject) => string[];

/** Records as a table, each row followed by `nested` lines; a `type` column when records of several types mix (a polymorphic relationship). */
function recordsTable(objects: readonly ResourceObject[], nested: Nested): string[] {
  const types = new Set(objects.map((o) => o.type));
  const columns = [...new Set(objects.flatMap((o) => Object.keys(o.attributes)))];
  const headers = [...(types.size > 1 ? ['type'] : []), 'id', ...columns];
  const rows = objects.map((o) => [...(types.size > 1 ? [o.type] : []), o.id, ...columns.map((c) => cell(o.attributes[c]))]);
  const [header, rule, ...lines] = formatTable(headers, rows).split('\n');
  return [header!, rule!, ...lines.flatMap((line, i) => [line, ...nested(objects[i]!).map((n) => `${NESTED}${n}`.trimEnd())])];
}

/** Under one record, for each relationship the include names: a label and its included records, nested in turn. */
function relatedLines(object: ResourceObject, tree: IncludeTree, index: ReadonlyMap<string, ResourceObject>): string[] {
  const lines: string[] = [];
  for (const [name, children] of tree) {
    const linkage = (object.relationships?.[name] as { data?: unknown } | undefined)?.data;
    // not loaded for this record (a polymorphic parent's other types, or a relationship it may not read)
    if (linkage === undefined) continue;
    const refs = (Array.isArray(linkage) ? linkage : linkage === null ? [] : [linkage]) as Array<{ type: string; id: string }>;
    const related = refs.map((ref) => index.get(key(ref))).filter((o): o is ResourceObject => o !== undefined);
    const label = Array.isArray(linkage) ? `${name} (${related.length})` : name;
    if (related.length === 0) lines.push(`${label}: none`);
    else lines.push(label, ...recordsTable(related, (o) => relatedLines(o, children, index)).map((l) => `  ${l}`));
  }
  return lines;
}

function statsTable(document: JsonApiDocument): string | undefined {
  const stats = document.meta.stats as Record<string, Record<string, unknown>> | undefined;
  if (!stats) return undefined;
  const rows = Object.entries(stats).flatMap(([name, calcs]) => Object.entries(calcs).map(([calc, value]) => [name, calc, JSON.stringify(value)]));
  return `stats\n${formatTable(['stat', 'calculation', 'value'], rows)}`;
}

/**
 * Records as a table; the records `include` names under each record that
 * refers to them (so a record two parents share shows under both); then
 * `summary` (what page of how many), then stats.
 */
export function renderTable(document: JsonApiDocument, include?: string, summary?: string): string {
  const data = Array.isArray(document.data) ? document.data : document.data ? [document.data] : [];
  const index = new Map((document.included ?? []).map((o) => [key(o), o]));
  const tree = includeTree(include);
  const sections = [data.length > 0 ? recordsTable(data, (o) => relatedLines(o, tree, index)).join('\n') : '(no records)'];
  if (summary) sections.push(summary);
  const stats = statsTable(document);
  if (stats) sections.push(stats);
  return sections.join('\n\n');
}
