import type { ResourceBase } from '../resource/resource-base.ts';
import type { StatRequest } from '../query/query-plan.ts';
import { lookupType } from '../types/index.ts';

/**
 * Statistics by attribute and calculation, as `meta.stats` renders them: `{ age: { average: 41.2
 * }, total: { count: 300 } }`.
 */
export type StatsResult = Record<string, Record<string, unknown>>;

/**
 * Computes requested statistics over the filtered, unpaginated scope. One
 * count serves every `count` asked for.
 */
export async function runStats(resource: ResourceBase, scope: unknown, requests: readonly StatRequest[]): Promise<StatsResult> {
  const { config } = resource.resourceClass;
  const stats: StatsResult = {};
  let count: Promise<number> | undefined;
  for (const { name, calculations } of requests) {
    const definition = config.stats.get(name)!;
    stats[name] = {};
    for (const calc of calculations) {
      const implementation = definition.calculations.get(calc)!;
      let value: unknown;
      if (typeof implementation === 'function') {
        value = await implementation(scope as never, name, resource as never);
      } else if (implementation === 'count') {
        value = await (count ??= resource.adapter.count(scope));
      } else {
        value = normalize(await resource.adapter.calculate(scope, name, implementation), implementation, config.attributes.get(name)?.type);
      }
      stats[name]![calc] = value;
    }
  }
  return stats;
}

/** Drivers disagree on aggregate types (PostgreSQL returns strings); render numbers as numbers. */
function normalize(value: unknown, calculation: string, typeName: string | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (calculation === 'average' || calculation === 'sum') {
    const n = Number(value);
    return Number.isNaN(n) ? value : n;
  }
  if (!typeName) return value;
  return typeName === 'big_decimal' ? Number(value) : lookupType(typeName).read(value);
}
