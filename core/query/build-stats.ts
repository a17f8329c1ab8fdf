import { didYouMean } from '../did-you-mean.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { listOf } from '../query-params.ts';
import type { StatRequest } from './query-plan.ts';

/** What people call the built-in calculations (`max` and `min` are found as prefixes). */
const CALCULATION_ALIASES = { avg: 'average', mean: 'average', total: 'sum' };

/** Validates `stats[name]=calc,calc` against the Resource's declared stats. */
export function buildStats(resource: ResourceBase, raw: Record<string, unknown>, path = 'stats'): StatRequest[] {
  const { config, type } = resource.resourceClass;
  return Object.entries(raw).map(([name, value]) => {
    const parameter = `${path}[${name}]`;
    const stat = config.stats.get(name);
    if (!stat) {
      const known = [...config.stats.keys()].join(', ');
      throw new InvalidQueryError('unknown_stat', `Unknown stat "${name}" on ${type}; ${didYouMean(name, config.stats.keys())}available: ${known}`, { parameter });
    }
    const calculations = listOf(value, parameter);
    if (calculations.length === 0) {
      throw new InvalidQueryError('unknown_stat', `Stat "${name}" needs a calculation: ${[...stat.calculations.keys()].join(', ')}`, { parameter });
    }
    for (const calc of calculations) {
      if (!stat.calculations.has(calc)) {
        throw new InvalidQueryError(
          'unknown_stat',
          `Unknown calculation "${calc}" for stat "${name}" on ${type}; ${didYouMean(calc, stat.calculations.keys(), CALCULATION_ALIASES)}available: ${[...stat.calculations.keys()].join(', ')}`,
          { parameter },
        );
      }
    }
    return { name, calculations };
  });
}
