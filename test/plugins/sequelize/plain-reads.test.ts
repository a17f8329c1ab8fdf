import test from 'ava';
import { DataTypes, Model } from 'sequelize';
import { Resource } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { openDatabase } from '../../support/databases.ts';

/**
 * Render-only reads skip findAll for a generated SELECT, but never when
 * findAll would add something: a model's default scope must still apply.
 */
test('a default scope still narrows render-only reads', async (t) => {
  const sequelize = await openDatabase({ name: 'sqlite', url: ':memory:' }, 'plain_reads');
  class Item extends Model {}
  Item.init(
    { id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, name: DataTypes.STRING, visible: DataTypes.BOOLEAN },
    { sequelize, tableName: 'items', timestamps: false, defaultScope: { where: { visible: true } } },
  );
  class Plain extends Model {}
  Plain.init({ id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, label: { type: DataTypes.STRING, field: 'the_label' } }, { sequelize, tableName: 'plains', timestamps: false });
  await sequelize.sync();
  await Item.bulkCreate([{ name: 'shown', visible: true }, { name: 'hidden', visible: false }]);
  await Plain.bulkCreate([{ label: 'a' }, { label: 'b' }]);
  class ItemResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = Item;
      this.type = 'items';
      this.attribute('name', 'string');
    }
  }
  class PlainResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = Plain;
      this.type = 'plains';
      this.attribute('label', 'string');
    }
  }
  try {
    const items = await ItemResource.all({}).toJsonapi();
    t.deepEqual((items.data as Array<{ attributes: object }>).map((d) => d.attributes), [{ name: 'shown' }]);
    const plains = await PlainResource.all({ filter: { label: 'b' }, sort: '-label' }).toJsonapi();
    t.deepEqual((plains.data as Array<{ attributes: object }>).map((d) => d.attributes), [{ label: 'b' }], 'a field name differing from the attribute maps both ways');
  } finally {
    await sequelize.close();
  }
});

test('a find hook on the model still shapes render-only reads', async (t) => {
  const sequelize = await openDatabase({ name: 'sqlite', url: ':memory:' }, 'plain_reads_hooks');
  class Secret extends Model {}
  Secret.init({ id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, code: DataTypes.STRING }, { sequelize, tableName: 'secrets', timestamps: false });
  await sequelize.sync();
  await Secret.bulkCreate([{ code: 'uryyb' }]);
  // a model that stores rot13 text and decodes it after every find
  const rot13 = (text: string) => text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97));
  Secret.addHook('afterFind', (found) => {
    for (const row of (Array.isArray(found) ? found : [found]) as Array<Record<string, unknown> & { dataValues?: Record<string, unknown> }>) {
      const values = row.dataValues ?? row;
      values.code = rot13(String(values.code));
    }
  });
  class SecretResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = Secret;
      this.type = 'secrets';
      this.attribute('code', 'string');
    }
  }
  try {
    const document = await SecretResource.all({}).toJsonapi();
    t.deepEqual((document.data as Array<{ attributes: object }>).map((d) => d.attributes), [{ code: 'hello' }]);
  } finally {
    await sequelize.close();
  }
});
