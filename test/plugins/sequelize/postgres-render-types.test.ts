import test from 'ava';
import { DataTypes, Model, type Sequelize } from 'sequelize';
import { Resource, withDeadline } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { selectThroughDriver } from '../../../plugins/sequelize/driver-select.ts';
import { isoFromUtcText } from '../../../plugins/sequelize/postgres-render-types.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

/**
 * On PostgreSQL, plain rows (read only by the renderer) take a UTC
 * timestamptz as the ISO text the renderer writes, skipping pg's Date and
 * the renderer's toISOString. Documents must not change; model instances
 * keep their Dates.
 */
test('PostgreSQL UTC text becomes the ISO form a Date renders as, milliseconds truncated; any other form is left to the driver', (t) => {
  for (const [text, iso] of [
    ['2024-05-06 07:08:09+00', '2024-05-06T07:08:09.000Z'],
    ['2024-05-06 07:08:09.1+00', '2024-05-06T07:08:09.100Z'],
    ['2024-05-06 07:08:09.12+00', '2024-05-06T07:08:09.120Z'],
    ['2024-05-06 07:08:09.123+00', '2024-05-06T07:08:09.123Z'],
    ['2024-05-06 07:08:09.1234+00', '2024-05-06T07:08:09.123Z'],
    ['2024-05-06 07:08:09.123456+00', '2024-05-06T07:08:09.123Z'],
    ['2024-05-06 07:08:09.999999+00', '2024-05-06T07:08:09.999Z'],
    ['0099-01-01 00:00:00+00', '0099-01-01T00:00:00.000Z'],
  ]) {
    t.is(isoFromUtcText(text!), iso, text);
    t.is(isoFromUtcText(text!), new Date(text!.replace(' ', 'T').replace('+00', 'Z')).toISOString(), `${text} as a Date`);
  }
  for (const other of ['2024-05-06 07:08:09+02', '2024-05-06 12:38:09.5+05:30', '0044-03-15 12:00:00+00 BC', '12000-01-01 00:00:00+00', 'infinity', '-infinity', '2024-05-06',
    '2024-05-06 07:08:09.+00', '2024-05-06 07:08:09.1234567+00', '2024-05-06T07:08:09+00', '2024-0a-06 07:08:09+00', '2024-05-06 07:08:09.12x+00', '2024-05-06 07:08:09+000',
    '2024-05-06 07:08:09+00\n', ' 2024-05-06 07:08:09+00', '2024-05-06 07:08:09-00', '２０２４-05-06 07:08:09+00']) {
    t.is(isoFromUtcText(other), undefined, other);
  }
});

const STORED = ["'2024-05-06 07:08:09.123456+00'", 'NULL', "'12000-01-01 00:00:00+00'", "'0044-03-15 12:00:00+00 BC'", "'2020-02-29 23:59:59.999+00'"];
const RENDERED = ['2024-05-06T07:08:09.123Z', null, '+012000-01-01T00:00:00.000Z', '-000043-03-15T12:00:00.000Z', '2020-02-29T23:59:59.999Z'];

for (const database of testDatabases().filter((d) => d.name === 'postgres')) {
  for (const timezone of ['+00:00', '+05:30']) {
    const key = `render_types_${timezone === '+00:00' ? 'utc' : 'ist'}`;
    let sequelize: Sequelize;
    class Event extends Model {}
    class PlainEvents extends Resource {}
    class ModelEvents extends Resource {}

    test.before(async () => {
      sequelize = await openDatabase(database, key, { timezone });
      Event.init({ id: { type: DataTypes.INTEGER, primaryKey: true }, at: DataTypes.DATE }, { sequelize, tableName: 'events', timestamps: false });
      await sequelize.sync({ force: true });
      await sequelize.query(`INSERT INTO events (id, at) VALUES ${STORED.map((at, i) => `(${i + 1}, ${at})`).join(', ')}`);
      Object.assign(PlainEvents, { adapter: SequelizeAdapter, model: Event, type: 'events' });
      PlainEvents.attribute('at', 'datetime');
      // an attribute block receives the model: these records are model instances
      Object.assign(ModelEvents, { adapter: SequelizeAdapter, model: Event, type: 'events' });
      ModelEvents.attribute('at', 'datetime');
      ModelEvents.attribute('year', 'integer', (event: Model) => {
        const at = event.get('at') as Date | null;
        return at ? at.getUTCFullYear() : null;
      });
    });
    test.after.always(() => sequelize?.close());

    const attributes = (document: { data: unknown }) => (document.data as unknown as Array<{ attributes: { at: unknown } }>).map((d) => d.attributes.at);

    test.serial(`${database.name}, session time zone ${timezone}: plain rows and model instances render every timestamp alike`, async (t) => {
      t.deepEqual(attributes(await PlainEvents.all({ sort: 'id' }).toJsonapi()), RENDERED);
      const document = await ModelEvents.all({ sort: 'id' }).toJsonapi();
      t.deepEqual(attributes(document), RENDERED);
      t.deepEqual((document.data as unknown as Array<{ attributes: { year: unknown } }>).map((d) => d.attributes.year), [2024, null, 12000, -43, 2020], 'instances hold Dates');
    });

    test.serial(`${database.name}, session time zone ${timezone}: rows read for rendering carry ISO text, other rows Dates, batched or not`, async (t) => {
      const sql = 'SELECT id, at FROM events WHERE id = 1';
      const [rendered] = await selectThroughDriver(sequelize, sql, undefined, { plain: true });
      const [plain] = await selectThroughDriver(sequelize, sql, undefined);
      t.true(plain!.at instanceof Date);
      if (timezone === '+00:00') t.is(rendered!.at, '2024-05-06T07:08:09.123Z');
      else t.deepEqual(rendered!.at, plain!.at, 'another session time zone keeps the driver\'s Date');
      // while another request reads, statements started together are batched: each lane keeps its own parsers
      const other = withDeadline(() => selectThroughDriver(sequelize, 'SELECT pg_sleep(0.3) AS slept;', undefined), { fresh: true });
      const rows = await withDeadline(() => Promise.all([
        selectThroughDriver(sequelize, sql, undefined, { plain: true }),
        selectThroughDriver(sequelize, sql, undefined),
        selectThroughDriver(sequelize, 'SELECT id, at FROM events WHERE id = 5', undefined, { plain: true }),
      ]));
      await other;
      t.true(rows[1]![0]!.at instanceof Date);
      if (timezone === '+00:00') t.deepEqual([rows[0]![0]!.at, rows[2]![0]!.at], ['2024-05-06T07:08:09.123Z', '2020-02-29T23:59:59.999Z']);
    });
  }
}
