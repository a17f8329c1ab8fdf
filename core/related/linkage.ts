import { InvalidQueryError } from '../errors/index.ts';
import type { QueryParams } from '../query-params.ts';
import type { PaginationLinks } from '../render/document.ts';
import type { StatsResult } from '../read/run-stats.ts';
import type { LoadedRecord } from '../sideload/include-graph.ts';

/** A JSON:API resource identifier: a record's `type` and `id`. */
export interface ResourceIdentifier {
  type: string;
  id: string;
}

/** Where a relationship (`self`) and its records (`related`) are, with pagination links when paginated. */
export type LinkageLinks = { self: string; related: string } & Partial<Omit<PaginationLinks, 'self'>>;

/**
 * `GET {ns}/{type}/{id}/relationships/{name}`: the relationship's linkage.
 * `links` is left out only in-process, for a Resource with no `show` endpoint.
 */
export interface LinkageDocument {
  data: ResourceIdentifier | ResourceIdentifier[] | null;
  links?: LinkageLinks;
  meta: { stats?: StatsResult };
}

/**
 * The relationship endpoint answers identifiers only: there is nothing to
 * include or pick fields of, and JSON:API wants a 400 for an `include` an
 * endpoint does not support. Filters, sorts, pages and stats apply as on the
 * related endpoint.
 */
export function assertLinkageParams(params: QueryParams): void {
  for (const name of ['include', 'fields', 'extra_fields', 'meta_fields'] as const) {
    const value = params[name];
    if (value === undefined) continue;
    const key = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value)[0] : undefined;
    throw new InvalidQueryError('unsupported_parameter', `A relationship endpoint answers resource identifiers only; ${name} applies to its related endpoint`, {
      parameter: key === undefined ? name : `${name}[${key}]`,
    });
  }
}

export function renderLinkage(records: readonly LoadedRecord[], toOne: boolean, links: LinkageLinks | undefined, stats: StatsResult): LinkageDocument {
  const identifiers = records.map(({ record, resource }) => ({ type: resource.type, id: String((record as { id?: unknown }).id) }));
  const meta = Object.keys(stats).length > 0 ? { stats } : {};
  const data = toOne ? (identifiers[0] ?? null) : identifiers;
  return links ? { data, links, meta } : { data, meta };
}
