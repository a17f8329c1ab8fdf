import test from 'ava';
import { DataTypes, Model, Op, Sequelize } from 'sequelize';
import { BUILT_IN_OPERATORS, type FilterClause } from '../../../core/index.ts';
import { SequelizeAdapter, SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { countSql, generatedCountSql, generatedSelectSql, isTemplated, keptShapes, MAX_SHAPES_PER_MODEL, selectSql } from '../../../plugins/sequelize/select-sql.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

/**
 * Direct reads assemble their SELECT from parts cached per model, column
 * list and order. Whatever the scope, the SQL must be exactly what
 * Sequelize's own `selectQuery` generates for it.
 */
for (const db of testDatabases('select_sql')) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'select_sql');
  });
  test.after.always(async () => dir?.sequelize.close());

  const adapter = new SequelizeAdapter({ name: 'Test', model: undefined, type: 'tests' });
  const clause = (column: string, operator: FilterClause['operator'], values: unknown[], extra: Partial<FilterClause> = {}): FilterClause => ({
    column, operator, values, negated: false, caseInsensitive: false, typeName: 'string', ...extra,
  });

  function scopes(): Array<[string, SequelizeScope]> {
    const base = SequelizeScope.of(dir.models.Employee);
    const sorted = adapter.order(adapter.order(base, 'last_name', 'asc'), 'id', 'desc');
    const list: Array<[string, SequelizeScope]> = [
      ['every column', base],
      ['sorted and paged', adapter.paginate(sorted, 20, 3)],
      ['chosen columns', sorted.attributes(['id', 'first_name'])],
      ['a page of the same shape with other values', adapter.paginate(adapter.filter(sorted, clause('id', 'eq', [4, 5], { typeName: 'integer' })), 5, 1)],
      ['a plain Sequelize condition', sorted.where({ age: { [Op.gt]: 30 } })],
      ['a sideload by parent ids (its own fast path)', adapter.filter(sorted, clause('age', 'eq', [3, 1, 2], { typeName: 'integer' }))],
      ['one parent id', adapter.filter(sorted, clause('id', 'eq', [7], { typeName: 'integer' }))],
      ['ids that are not whole numbers take the general path', adapter.filter(sorted, clause('age', 'eq', [1.5, 2], { typeName: 'integer' }))],
      ['an object condition on ids', sorted.where({ id: { [Op.in]: [3, 1, 2] } })],
      ['a tenant rule and a sideload (their own fast path)', adapter.filter(adapter.filter(sorted, clause('age', 'eq', [7], { typeName: 'integer' })), clause('id', 'eq', [3, 1, 2], { typeName: 'integer' }))],
      ['comparisons ANDed', adapter.filter(adapter.filter(adapter.filter(sorted, clause('id', 'gte', [1], { typeName: 'integer' })), clause('age', 'lt', [-3], { typeName: 'integer' })), clause('id', 'lte', [900], { typeName: 'integer' }))],
      ['one comparison', adapter.filter(sorted, clause('age', 'gt', [0], { typeName: 'integer' }))],
      ['a comparison with a fraction takes the general path', adapter.filter(adapter.filter(sorted, clause('age', 'gt', [0.5], { typeName: 'integer' })), clause('id', 'eq', [1], { typeName: 'integer' }))],
      ['a literal order falls back', base.order([Sequelize.literal('age IS NULL'), 'ASC'])],
      ['other findAll options fall back', base.options({ lock: true })],
      ['computed columns fall back', base.annotate(Sequelize.literal('1'), 'one')],
    ];
    for (const operator of BUILT_IN_OPERATORS) {
      const values = ['gt', 'gte', 'lt', 'lte'].includes(operator) ? [30] : ['Ad%a_', null];
      const typeName = values[0] === 30 ? 'integer' : 'string';
      for (const negated of [false, true]) {
        const column = typeName === 'integer' ? 'age' : 'first_name';
        list.push([`${negated ? 'not_' : ''}${operator}`, adapter.filter(sorted, clause(column, operator, values, { negated, typeName, caseInsensitive: operator !== 'eql' }))]);
      }
    }
    const join = { table: 'employee_teams', parentKey: 'team_id', childKey: 'employee_id', primaryKey: 'id' };
    list.push(['linked through a join table', adapter.filterThrough(sorted, join, [1, 2, 3], true)]);
    list.push(['linked, filtered and paged', adapter.paginate(adapter.filterThrough(adapter.filter(sorted, clause('first_name', 'prefix', ['a'], { caseInsensitive: true })), join, [2], true), 10, 1)]);
    list.push(['filtered through a join table', adapter.filterThrough(sorted, join, [1], false)]);
    return list;
  }

  test(`${db.name}: every scope reads with the SELECT Sequelize would generate`, (t) => {
    // twice: the second round reads the parts the first one cached
    for (let round = 0; round < 2; round++) {
      for (const [label, scope] of scopes()) {
        t.is(selectSql(scope), generatedSelectSql(scope), label);
        t.is(countSql(scope), generatedCountSql(scope), `${label}: the count`);
      }
    }
    const fallbacks = scopes().filter(([, scope]) => !isTemplated(scope)).map(([label]) => label);
    t.deepEqual(fallbacks, ['a literal order falls back', 'other findAll options fall back', 'computed columns fall back']);
  });

  test(`${db.name}: the generated SELECTs run and agree with findAll`, async (t) => {
    for (const [label, scope] of scopes()) {
      if (scope.through) continue;
      const rows = (await dir.sequelize.query(selectSql(scope), { type: 'SELECT' })) as Array<{ id: number }>;
      const models = await dir.models.Employee.findAll({ ...scope.findOptions });
      t.deepEqual(rows.map((r) => Number(r.id)), models.map((m) => Number(m.get('id'))), label);
      const [counted] = (await dir.sequelize.query(countSql(scope), { type: 'SELECT' })) as Array<{ count: number | string }>;
      t.is(Number(counted!.count), await dir.models.Employee.count({ where: scope.unpaginated().findOptions.where }), `${label}: the count`);
    }
  });

  test(`${db.name}: conditions written with attribute names reach renamed columns`, async (t) => {
    class Renamed extends Model {}
    Renamed.init({ id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, label: { type: DataTypes.STRING, field: 'the_label' } }, { sequelize: dir.sequelize, tableName: 'renamed_things', timestamps: false });
    await Renamed.sync({ force: true });
    await Renamed.bulkCreate([{ label: 'a' }, { label: 'b' }]);
    const scope = SequelizeScope.of(Renamed).where({ label: 'b' }).order([Sequelize.col('Renamed.id'), 'ASC']);
    t.true(isTemplated(scope));
    t.is(selectSql(scope), generatedSelectSql(scope));
    const rows = (await dir.sequelize.query(selectSql(scope), { type: 'SELECT' })) as Array<{ label: string }>;
    t.deepEqual(rows.map((r) => r.label), ['b']);
  });

  test(`${db.name}: a stream of distinct sorts keeps at most ${MAX_SHAPES_PER_MODEL} shapes per model, each SELECT still Sequelize's`, (t) => {
    class Sorted extends Model {}
    Sorted.init({ id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, label: { type: DataTypes.STRING } }, { sequelize: dir.sequelize, tableName: 'sorted_things', timestamps: false });
    // what `sort=label,-id,label,…` becomes: any sequence of names and directions, repeats allowed
    const orderFor = (n: number) => n.toString(4).split('').map((digit) => [Sequelize.col(Number(digit) % 2 ? 'Sorted.label' : 'Sorted.id'), Number(digit) < 2 ? 'ASC' : 'DESC']);
    let last = '';
    for (let n = 1; n <= 3 * MAX_SHAPES_PER_MODEL; n++) {
      const scope = SequelizeScope.of(Sorted).order(...(orderFor(n) as never[]));
      t.true(isTemplated(scope));
      last = selectSql(scope);
      if (n % 97 === 0) t.is(last, generatedSelectSql(scope), `sort ${n}`);
      t.true(keptShapes(Sorted) <= MAX_SHAPES_PER_MODEL);
    }
    t.is(keptShapes(Sorted), MAX_SHAPES_PER_MODEL);
    // an early shape, evicted since, is built again, the same
    const first = SequelizeScope.of(Sorted).order(...(orderFor(1) as never[]));
    t.is(selectSql(first), generatedSelectSql(first));
  });
}
