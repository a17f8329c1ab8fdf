import type { ExecutionContext } from 'ava';
import type { JsonApiDocument, ResourceObject } from '../../core/index.ts';
import type { Directory } from './directory.ts';

/** What the nested prefetch's tests look for in the example's SQL and documents. */

export type Linkage = { type: string; id: string } | null;

export const departmentQueries = (dir: Directory) => dir.queries.filter((sql) => /FROM\s+["`]departments["`]/i.test(sql));
/** A departments query naming its records through the positions' conditions, as a subquery, rather than by loaded keys. */
export const readsThroughPositions = (sql: string) => /IN \(SELECT\s+["`]Position["`]\.["`]department_id["`] FROM ["`]positions["`]/i.test(sql);

/** Every included position links the department its row names, and `included` holds exactly those departments. */
export async function assertDepartmentsMatchRows(t: ExecutionContext, dir: Directory, doc: JsonApiDocument): Promise<void> {
  const positions = (doc.included ?? []).filter((r) => r.type === 'positions');
  t.true(positions.length > 0);
  const rows = await dir.models.Position.findAll({ where: { id: positions.map((p) => Number(p.id)) } });
  const departmentOf = new Map(rows.map((row) => [String(row.get('id')), row.get('department_id') as number | null]));
  const expected = new Set<string>();
  for (const position of positions) {
    const id = departmentOf.get(position.id);
    const linkage = (position.relationships!.department as { data: Linkage }).data;
    t.deepEqual(linkage, id === null || id === undefined ? null : { type: 'departments', id: String(id) }, `position ${position.id}`);
    if (id !== null && id !== undefined) expected.add(String(id));
  }
  const included = (doc.included ?? []).filter((r: ResourceObject) => r.type === 'departments').map((r) => r.id);
  t.deepEqual([...included].sort(), [...expected].sort(), 'each department once');
}

/** Runs `body` with the Resource's `resolve` wrapped, then puts it back. */
export async function wrappingResolve<T>(resource: { prototype: object }, wrap: (original: (...args: unknown[]) => Promise<unknown[]>) => (...args: unknown[]) => Promise<unknown[]>, body: () => Promise<T>): Promise<T> {
  const prototype = resource.prototype as { resolve: (...args: unknown[]) => Promise<unknown[]> };
  const own = Object.prototype.hasOwnProperty.call(prototype, 'resolve');
  const original = prototype.resolve;
  prototype.resolve = wrap(original);
  try {
    return await body();
  } finally {
    if (own) prototype.resolve = original;
    else delete (prototype as { resolve?: unknown }).resolve;
  }
}

/** A departments query naming its records through the teams' conditions. */
export const readsThroughTeams = (sql: string) => /IN \(SELECT\s+["`]Team["`]\.["`]department_id["`] FROM ["`]teams["`]/i.test(sql);
