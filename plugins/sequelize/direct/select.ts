import type { Model, Transaction } from 'sequelize';
import { currentTransaction } from '../../../core/index.ts';
import { selectThroughDriver, type SelectOptions } from '../driver-select.ts';
import { PARENT, PARENT_IDS } from '../join-table.ts';
import { countSql, selectStatement } from '../select-sql.ts';
import type { SequelizeScope } from '../sequelize-scope.ts';

interface ModelInternals {
  _scope?: Record<string, unknown>;
  options: { paranoid?: boolean };
  hasHook(name: string): boolean;
}

/** Model hooks `findAll` runs, which user code may rely on to shape what it reads. */
const FIND_HOOKS = ['beforeFind', 'beforeFindAfterExpandIncludeAll', 'beforeFindAfterOptions', 'afterFind'];

/**
 * Whether a scope can be read with one generated SELECT instead of
 * `findAll`: nothing `findAll` would add (default scopes, paranoid
 * filtering, find hooks, joins, grouping) is in play.
 */
export function canSelectDirectly(scope: SequelizeScope): boolean {
  const model = scope.model as unknown as ModelInternals;
  if (scope.joinsModels || scope.groupsRows || model.options.paranoid) return false;
  return Object.keys(model._scope ?? {}).length === 0 && !FIND_HOOKS.some((hook) => model.hasHook(hook));
}

/**
 * Plain rows for a scope, skipping `findAll`'s option cloning, hooks and
 * instance building: the read path's hot loop when no user code needs models.
 */
export function selectRows(scope: SequelizeScope, options: SelectOptions = {}): Promise<Model[]> {
  const { sql, columns } = selectStatement(scope);
  const rows = selectThroughDriver(scope.model.sequelize!, sql, currentTransaction() as Transaction | undefined, { ...options, columns });
  if (!scope.through) return rows as Promise<unknown[]> as Promise<Model[]>;
  return rows.then((list) => foldParents(list, scope.model.primaryKeyAttribute) as unknown[] as Model[]);
}

const COUNT_COLUMNS = ['count'];

/** `COUNT(*)` of a scope that `canSelectDirectly` accepts. */
export async function countRows(scope: SequelizeScope): Promise<number> {
  // both forms of the count name their one column `count`
  const [row] = await selectThroughDriver(scope.model.sequelize!, countSql(scope), currentTransaction() as Transaction | undefined, { plain: true, columns: COUNT_COLUMNS });
  // PostgreSQL returns bigint counts as strings
  return Number(row?.count ?? 0);
}

/** One row per record again, in first-seen order, with every linked parent id under PARENT_IDS. */
function foldParents(rows: Array<Record<string, unknown>>, primaryKey: string): Array<Record<string, unknown>> {
  const byKey = new Map<unknown, Record<string, unknown>>();
  for (const row of rows) {
    const seen = byKey.get(row[primaryKey]);
    if (seen) (seen[PARENT_IDS] as unknown[]).push(row[PARENT]);
    else byKey.set(row[primaryKey], Object.assign(row, { [PARENT_IDS]: [row[PARENT]] }));
  }
  return [...byKey.values()];
}
