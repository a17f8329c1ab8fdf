import { equalityClause } from '../adapter/adapter.ts';
import { RowForbidden } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { hasRules, ruledScope } from './rule-scope.ts';
import type { RuleAction } from '../resource/row-rule.ts';
import type { Trashed } from '../resource/soft-delete.ts';

type ResourceClass = typeof ResourceBase;

export interface AdmitOptions {
  /** Check the read rules too (a record written must stay readable). */
  withRead?: boolean;
  /** The column `key` is a value of. Default `id`. */
  keyColumn?: string;
  /** Which records the read rules take as readable, for a soft-deleting Resource (a write addressing the trash). */
  trashed?: Trashed;
}

/** What a refusal says the caller may not do, by the rule's action. */
const REFUSALS: Record<Exclude<RuleAction, 'read'>, (type: string, id: string) => string> = {
  update: (type, id) => `You may not update ${type} record ${JSON.stringify(id)}`,
  destroy: (type, id) => `You may not destroy ${type} record ${JSON.stringify(id)}`,
  link: (type, id) => `You may not link ${type} record ${JSON.stringify(id)} into a relationship`,
  create: (type) => `The ${type} record written is not one you may create`,
};

/**
 * Throws RowForbidden unless the record with `key` meets the Resource's
 * rules for `action` (and, with `withRead`, its read rules): one query, only
 * when such rules exist. Run inside the write's transaction, it sees what the
 * write has done so far.
 */
export async function assertRuleAdmits(resourceClass: ResourceClass, key: unknown, action: Exclude<RuleAction, 'read'>, pointer: string | null, options: AdmitOptions = {}): Promise<void> {
  const { withRead = false, keyColumn = 'id', trashed } = options;
  if (!hasRules(resourceClass, action) && !(withRead && hasRules(resourceClass, 'read'))) return;
  const resource = new resourceClass();
  let scope = resource.adapter.filter(resource.baseScope(), equalityClause(keyColumn, [key], resourceClass.config.attributes.get(keyColumn)?.type ?? 'integer_id'));
  if (withRead) scope = ruledScope(resource, scope, 'read', trashed);
  scope = ruledScope(resource, scope, action);
  const [found] = await resource.resolve(scope);
  if (found) return;
  const id = String(key);
  const detail = withRead && action === 'update' ? `The ${resourceClass.type} record written is not one you may update` : REFUSALS[action](resourceClass.type, id);
  throw new RowForbidden(detail, { pointer });
}
