import test from 'ava';
import fc from 'fast-check';
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { fromContext, Resource, withContext, type MuralContext, type RowCondition } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

/**
 * Generated rules over generated rows: on every database, what a read rule
 * lets through (the index, its count, the records included under a parent,
 * a show) is exactly the rule applied in JavaScript to the whole table, with
 * SQL's three-valued logic (a comparison with NULL is unknown, and unknown
 * is not true, even under a `not`). MURAL_RULE_RUNS sets the number of
 * rules tried per database (default 40).
 */
interface Item {
  id: number;
  owner: number | null;
  score: number | null;
  label: string | null;
  group_id: number | null;
}
interface Group {
  id: number;
  region: number | null;
}

const RUNS = Number(process.env.MURAL_RULE_RUNS ?? 40);
const LABELS = ['ab', 'Ab', 'b_', 'a%', 'ba', '', null] as const;
const small = fc.integer({ min: 0, max: 4 });
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 4 });

const groupsArbitrary = fc.array(fc.record({ region: nullable(small) }), { minLength: 1, maxLength: 4 });
const itemsArbitrary = (groups: number) =>
  fc.array(fc.record({ owner: nullable(small), score: nullable(fc.integer({ min: 0, max: 9 })), label: fc.constantFrom(...LABELS), group_id: nullable(fc.integer({ min: 1, max: groups + 1 })) }), { minLength: 0, maxLength: 25 });

/** A column condition: a value, a list, null, the context's `u`, or operators. */
const leaf: fc.Arbitrary<RowCondition> = fc.oneof(
  fc.record({ owner: fc.oneof(small, fc.constant(null), fc.array(nullable(small), { maxLength: 3 }), fc.constant(fromContext('u'))) }),
  fc.record({ score: fc.dictionary(fc.constantFrom('eq', 'not_eq', 'gt', 'gte', 'lt', 'lte'), fc.integer({ min: 0, max: 9 }), { minKeys: 1, maxKeys: 2 }) }),
  fc.record({ label: fc.oneof(fc.constantFrom('ab', 'Ab', ''), fc.dictionary(fc.constantFrom('prefix', 'suffix', 'match', 'not_prefix'), fc.constantFrom('a', 'A', 'b', '%', '_'), { minKeys: 1, maxKeys: 1 })) }),
  fc.record({ 'group.region': fc.oneof(small, fc.constant(null), fc.record({ gte: small })) }),
  fc.boolean(),
) as fc.Arbitrary<RowCondition>;

const conditionArbitrary: fc.Arbitrary<RowCondition> = fc.letrec<{ condition: RowCondition }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ or: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ and: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: tie('condition') }),
  ) as fc.Arbitrary<RowCondition>,
})).condition;

/** The context a run reads: `u`, or nothing (every rule naming it then admits nothing). */
const contextArbitrary = fc.option(small, { nil: undefined });

type Truth = boolean | null;

/** The rule in JavaScript, SQL's way: null for unknown. */
function evaluate(condition: RowCondition, item: Item, groups: ReadonlyMap<number, Group>, context: { u?: number }): Truth {
  if (typeof condition === 'boolean') return condition;
  const keys = Object.keys(condition);
  if (keys.length === 1 && keys[0] === 'not') {
    const inner = evaluate((condition as { not: RowCondition }).not, item, groups, context);
    return inner === null ? null : !inner;
  }
  if (keys.length === 1 && (keys[0] === 'or' || keys[0] === 'and')) {
    const parts = (condition as Record<string, RowCondition[]>)[keys[0]]!.map((part) => evaluate(part, item, groups, context));
    return keys[0] === 'or' ? any(parts) : all(parts);
  }
  return all(Object.entries(condition).map(([key, value]) => entry(key, value, item, groups, context)));
}

function entry(key: string, value: unknown, item: Item, groups: ReadonlyMap<number, Group>, context: { u?: number }): Truth {
  if (key === 'group.region') {
    // a subquery on the group's key: never unknown
    const group = item.group_id === null ? undefined : groups.get(item.group_id);
    return group !== undefined && entry('region', value, group as unknown as Item, groups, context) === true;
  }
  const column = (item as unknown as Record<string, unknown>)[key] as number | string | null;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('path' in value)) {
    return all(Object.entries(value).map(([operator, operand]) => compare(column, operator, operand)));
  }
  const resolved = value !== null && typeof value === 'object' && 'path' in value ? context.u : value;
  return compare(column, 'eq', resolved);
}

function compare(column: number | string | null, operator: string, operand: unknown): Truth {
  const negated = operator.startsWith('not_');
  const name = negated ? operator.slice(4) : operator;
  const values = Array.isArray(operand) ? operand : [operand];
  if (values.length === 0) return negated;
  const results: Truth[] = values.map((value) => {
    if (value === null) return column === null;
    if (column === null) return null;
    switch (name) {
      case 'eq': return column === value;
      case 'gt': return (column as number) > (value as number);
      case 'gte': return (column as number) >= (value as number);
      case 'lt': return (column as number) < (value as number);
      case 'lte': return (column as number) <= (value as number);
      case 'prefix': return String(column).toLowerCase().startsWith(String(value).toLowerCase());
      case 'suffix': return String(column).toLowerCase().endsWith(String(value).toLowerCase());
      default: return String(column).toLowerCase().includes(String(value).toLowerCase());
    }
  });
  const matched = any(results);
  return negated ? (matched === null ? null : !matched) : matched;
}

function any(parts: readonly Truth[]): Truth {
  if (parts.includes(true)) return true;
  return parts.includes(null) ? null : false;
}

function all(parts: readonly Truth[]): Truth {
  if (parts.includes(false)) return false;
  return parts.includes(null) ? null : true;
}

/** A rule naming a context value the request lacks admits nothing, whatever else it says. */
function namesContext(condition: RowCondition): boolean {
  return JSON.stringify(condition, (_key, value: unknown) => (value !== null && typeof value === 'object' && 'path' in value ? '__context__' : value)).includes('__context__');
}

function defineApi(models: Record<'Item' | 'Group', ModelStatic<Model>>) {
  class ItemResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = models.Item;
      this.type = 'items';
      this.maxPageSize = 1000;
      this.attribute('owner', 'integer');
      this.attribute('score', 'integer');
      this.attribute('label', 'string');
      this.belongsTo('group', { resource: () => GroupResource });
      this.allow('read', (ctx: MuralContext) => ctx.rule as RowCondition);
    }
  }
  class GroupResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = models.Group;
      this.type = 'groups';
      this.attribute('region', 'integer');
      this.hasMany('items', { resource: () => ItemResource });
    }
  }
  return { ItemResource, GroupResource };
}

for (const db of testDatabases('rule_properties')) {
  let sequelize: Sequelize;
  let models: Record<'Item' | 'Group', ModelStatic<Model>>;
  test.before(async () => {
    sequelize = await openDatabase(db, 'rule_properties');
    const id = { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true };
    models = {
      Group: sequelize.define('Group', { id, region: DataTypes.INTEGER }, { tableName: 'groups', timestamps: false }),
      Item: sequelize.define('Item', { id, owner: DataTypes.INTEGER, score: DataTypes.INTEGER, label: DataTypes.STRING, group_id: DataTypes.INTEGER }, { tableName: 'items', timestamps: false }),
    };
  });
  test.after.always(async () => {
    await sequelize?.close();
  });

  test(`${db.name}: every path returns exactly the rows the rule admits, as JavaScript computes it`, async (t) => {
    t.timeout(10 * 60_000);
    const { ItemResource, GroupResource } = defineApi(models);
    const world = fc.sample(groupsArbitrary.chain((groups) => fc.tuple(fc.constant(groups), itemsArbitrary(groups.length))), { numRuns: 3, seed: 36 });
    for (const [round, [groupRows, itemRows]] of world.entries()) {
      await sequelize.sync({ force: true });
      const groups = (await models.Group.bulkCreate(groupRows)).map((row) => row.get({ plain: true }) as Group);
      const items = (await models.Item.bulkCreate(itemRows)).map((row) => row.get({ plain: true }) as Item);
      const byId = new Map(groups.map((group) => [group.id, group]));
      await fc.assert(
        fc.asyncProperty(conditionArbitrary, contextArbitrary, async (rule, u) => {
          const context = u === undefined ? {} : { u };
          const expected = namesContext(rule) && u === undefined ? [] : items.filter((item) => evaluate(rule, item, byId, context) === true).map((item) => item.id);
          const asCaller = <T>(fn: () => Promise<T>) => withContext({ ...context, rule }, fn);
          const listed = await asCaller(async () => ((await ItemResource.all({ sort: 'id', page: { size: 1000 } }).data) as Array<{ id: number }>).map((item) => item.id));
          t.deepEqual(listed, expected, `index under ${JSON.stringify(rule)} with ${JSON.stringify(context)}`);
          const counted = await asCaller(() => ItemResource.all({ stats: { total: 'count' }, page: { size: 1 } }).stats);
          t.deepEqual(counted, { total: { count: expected.length } });
          const document = await asCaller(() => GroupResource.all({ include: 'items', page: { size: 1000 } }).toJsonapi());
          const grouped = expected.filter((id) => byId.has(items.find((item) => item.id === id)!.group_id ?? 0));
          t.deepEqual((document.included ?? []).map((record) => Number(record.id)).sort((a, b) => a - b), grouped, 'included under their groups');
          const probe = items[0];
          if (probe) {
            const shown = await asCaller(() => ItemResource.all({ filter: { id: String(probe.id) } }).data);
            t.is((shown as unknown[]).length, expected.includes(probe.id) ? 1 : 0);
          }
        }),
        { numRuns: RUNS, seed: 3600 + round },
      );
    }
  });
}
