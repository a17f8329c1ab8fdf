import { DataTypes, Model, type ModelStatic } from 'sequelize';
import type { ModelDescription } from '../../core/index.ts';

type Attributes = Record<string, { type?: unknown }>;

function isVirtual(attribute: { type?: unknown }): boolean {
  return attribute.type instanceof DataTypes.VIRTUAL;
}

/** Stored columns: what SQL can filter, sort and join on. */
function columnsOf(model: ModelStatic<Model>): string[] {
  return Object.entries(model.getAttributes() as Attributes)
    .filter(([, attribute]) => !isVirtual(attribute))
    .map(([name]) => name);
}

/**
 * What a record carries without a column: VIRTUAL attributes, and getters
 * the application's classes define (Sequelize's own members, on Model's
 * prototype, are not the application's to render).
 */
function propertiesOf(model: ModelStatic<Model>): string[] {
  const names = new Set<string>();
  for (const [name, attribute] of Object.entries(model.getAttributes() as Attributes)) if (isVirtual(attribute)) names.add(name);
  for (let proto = model.prototype as object | null; proto && proto !== Model.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (typeof Object.getOwnPropertyDescriptor(proto, name)?.get === 'function') names.add(name);
    }
  }
  return [...names];
}

/** Every other model of the same Sequelize instance, by table: a join table a many_to_many names is usually one of them. */
function tablesOf(model: ModelStatic<Model>): Map<string, readonly string[]> {
  const tables = new Map<string, readonly string[]>();
  for (const other of Object.values(model.sequelize?.models ?? {})) {
    const table = other.getTableName();
    tables.set(typeof table === 'string' ? table : table.tableName, columnsOf(other));
  }
  return tables;
}

function isModel(value: unknown): value is ModelStatic<Model> {
  return typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Model && 'getAttributes' in value;
}

/** The Sequelize adapter's answer to `describeModel`; undefined for anything that is not an initialised model. */
export function describeSequelizeModel(model: unknown): ModelDescription | undefined {
  if (!isModel(model)) return undefined;
  let columns: string[];
  try {
    columns = columnsOf(model);
  } catch {
    // a model class never passed to init() has no attributes to describe; its first query says so
    return undefined;
  }
  const columnSet = new Set(columns);
  return { name: model.name, columns, properties: propertiesOf(model).filter((name) => !columnSet.has(name)), tables: tablesOf(model) };
}
