import type { PlainGuard } from './guard.ts';
import type { Guard } from './guard.ts';

/** Which records a read or write addresses: live ones (the default), live and trashed (`with`), or trashed ones only. */
export type Trashed = 'without' | 'with' | 'only';

/** `softDelete(column, options)`: who may look into the trash, and who may empty it. */
export interface SoftDeleteOptions<I = never> {
  /** Who may send `filter[trashed]=with|only` (to read, restore or purge trashed records). Default: everyone. */
  trashed?: PlainGuard<I>;
  /** Who may delete a trashed record for good (a DELETE with `filter[trashed]`). Default: no one. */
  purge?: PlainGuard<I>;
}

/** A Resource's soft delete, as the read rule and the destroy step read it. */
export interface SoftDeleteDefinition {
  /** The column marking a record trashed: its time, NULL while it is live. */
  readonly column: string;
  readonly purge: Guard;
}

/** The filter `softDelete` declares: `filter[trashed]=with|only`. */
export const TRASHED_FILTER = 'trashed';

/** The part of a Resource's config this file writes (resource-config.ts holds the whole). */
interface SoftDeletingConfig {
  softDelete?: SoftDeleteDefinition;
}

/**
 * Records the soft delete, and returns the arguments of the `trashed`
 * filter's declaration: a filter that changes nothing by itself, since the
 * read rule (core/rules/rule-scope.ts) reads its value.
 */
export function declareSoftDelete(config: SoftDeletingConfig, column: string, options: SoftDeleteOptions<unknown>): unknown[] {
  config.softDelete = { column, purge: (options.purge ?? false) as Guard };
  const filterOptions = { allow: ['with', 'only'], single: true, only: ['eq'], guard: options.trashed ?? true, description: 'with: trashed records too; only: trashed records alone' };
  return ['string', filterOptions, { eq: (scope: unknown) => scope }];
}
