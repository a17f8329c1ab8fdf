import { fromContext, parseQueryString, withContext, type Resource } from '../core/index.ts';
import type { Fixture } from './fixtures.ts';
import { assertSameBytes } from './same-bytes.ts';
import { INCLUDE_QUERY, muralDocumentText } from './scenarios.ts';

/** Scenario 11's rule: one column condition with a context value, which every seeded row meets. */
const RULE = { id: { gte: fromContext('floor') } };
const CONTEXT = { floor: 1 };

export interface RuleCostContenders {
  /** The include request in-process, with no rule anywhere. */
  plain: () => Promise<string>;
  /** The same, with a read rule on every Resource it reads (employees, positions, departments, teams). */
  ruled: () => Promise<string>;
  /** Takes the rules off again: the fixture serves other scenarios after this one. */
  restore(): void;
}

/**
 * Scenario 11: what a read rule on every Resource of the include request
 * costs. The same Resource classes serve both contenders, their rule lists
 * swapped before each request, so the two differ by the rules alone; each
 * body is checked to be the other's byte for byte first.
 */
export async function ruleCostContenders(fixture: Fixture): Promise<RuleCostContenders> {
  const resources = (Object.values(fixture.resources) as Array<typeof Resource>).filter((resource) => !resource.abstractClass);
  const without = new Map(resources.map((resource) => [resource, [...resource.config.rules]]));
  for (const resource of resources) resource.allow('read', RULE);
  const ruledRules = new Map(resources.map((resource) => [resource, [...resource.config.rules]]));
  const use = (rules: ReadonlyMap<typeof Resource, readonly unknown[]>) => {
    for (const [resource, list] of rules) resource.config.rules.splice(0, resource.config.rules.length, ...(list as typeof resource.config.rules));
  };
  const params = parseQueryString(INCLUDE_QUERY);
  const request = { path: '/api/v1/employees', query: INCLUDE_QUERY, action: 'index' as const };
  const { EmployeeResource } = fixture.resources;
  const text = () => muralDocumentText(EmployeeResource.all(params, undefined, { request }));
  const contenders: RuleCostContenders = {
    plain: () => (use(without), text()),
    ruled: () => (use(ruledRules), withContext(CONTEXT, text)),
    restore: () => use(without),
  };
  assertSameBytes(await contenders.plain(), await contenders.ruled(), 'the include request with a read rule on every Resource');
  return contenders;
}
