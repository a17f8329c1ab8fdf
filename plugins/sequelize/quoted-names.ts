import type { Model, ModelStatic } from 'sequelize';

type Quote = (model: ModelStatic<Model>, name: string) => string;
type Cache = WeakMap<ModelStatic<Model>, Map<string, string>>;

interface QueryGenerator {
  quote(column: string, model: unknown): string;
}

const identifiers: Cache = new WeakMap();
const columns: Cache = new WeakMap();

const quoteIdentifier: Quote = (model, name) => model.sequelize!.getQueryInterface().quoteIdentifier(name);
const quoteColumn: Quote = (model, column) =>
  (model.sequelize!.getQueryInterface() as unknown as { queryGenerator: QueryGenerator }).queryGenerator.quote(column, model);

/**
 * Names quoted on a model's dialect, once per model and name: the SQL a
 * request writes directly names the same tables and columns every time.
 * Names come from declarations, never from a request, so the caches stay small.
 */
function remembered(cache: Cache, model: ModelStatic<Model>, name: string, quote: Quote): string {
  let byName = cache.get(model);
  if (!byName) cache.set(model, (byName = new Map()));
  let quoted = byName.get(name);
  if (quoted === undefined) byName.set(name, (quoted = quote(model, name)));
  return quoted;
}

/** A table, column or alias name as an identifier: `"name"` or `` `name` ``. */
export function quotedIdentifier(model: ModelStatic<Model>, name: string): string {
  return remembered(identifiers, model, name, quoteIdentifier);
}

/** A column of the model as Sequelize writes it in a condition (`"Alias"."column"`). */
export function quotedColumn(model: ModelStatic<Model>, column: string): string {
  return remembered(columns, model, column, quoteColumn);
}
