import test from 'ava';
import { DataTypes, Model, type ModelStatic, type Sequelize } from 'sequelize';
import { ConflictError, Resource } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

interface Schema {
  Club: ModelStatic<Model>;
  Member: ModelStatic<Model>;
  ClubMember: ModelStatic<Model>;
}

async function defineSchema(sequelize: Sequelize): Promise<Schema> {
  const plain = { timestamps: false, underscored: true };
  const Club = sequelize.define('Club', { name: DataTypes.STRING }, { ...plain, tableName: 'clubs' });
  const Member = sequelize.define('Member', { name: DataTypes.STRING }, { ...plain, tableName: 'members', version: 'lock_version' });
  const ClubMember = sequelize.define('ClubMember', { club_id: DataTypes.INTEGER, member_id: DataTypes.INTEGER }, {
    ...plain, tableName: 'club_members', indexes: [{ unique: true, fields: ['club_id', 'member_id'] }],
  });
  await sequelize.sync({ force: true });
  return { Club, Member, ClubMember };
}

/** Clubs refuse to be destroyed while they have members; members leave their clubs when destroyed (the default). */
function resources(schema: Schema) {
  class ClubResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = schema.Club;
      this.type = 'clubs';
      this.attribute('name', 'string');
      this.manyToMany('members', { resource: () => MemberResource, foreignKey: { club_members: 'club_id' }, onDestroy: 'refuse' });
    }
  }
  class MemberResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = schema.Member;
      this.type = 'members';
      this.attribute('name', 'string');
      this.manyToMany('clubs', { resource: () => ClubResource, foreignKey: { club_members: 'member_id' } });
    }
  }
  return { ClubResource, MemberResource };
}

/**
 * Issue 34, finding 4: a record's join rows go with it, in its transaction,
 * unless its relationship is declared `onDestroy: 'refuse'` (then a 409
 * while it has members); and a many-to-many relationship of any size can
 * be cleared or replaced, in one statement.
 */
for (const db of testDatabases('join_rows')) {
  let sequelize: Sequelize;
  let schema: Schema;
  let api: ReturnType<typeof resources>;
  test.before(async () => {
    sequelize = await openDatabase(db);
    schema = await defineSchema(sequelize);
    api = resources(schema);
  });
  test.after.always(() => sequelize?.close());

  const joinRows = (where: Record<string, number>) => schema.ClubMember.count({ where });

  test.serial(`${db.name}: a destroyed record's join rows go with it, and the records at the other end get new versions`, async (t) => {
    const club = await schema.Club.create({ name: 'Chess' });
    const members = await schema.Member.bulkCreate([{ name: 'Ann' }, { name: 'Bo' }]);
    const member = members[0]!;
    await schema.ClubMember.bulkCreate(members.map((m) => ({ club_id: club.get('id'), member_id: m.get('id') })));
    const proxy = api.MemberResource.find({ id: String(member.get('id')) });
    t.true(await proxy.destroy());
    t.is(await joinRows({ member_id: member.get('id') as number }), 0);
    t.is(await joinRows({ club_id: club.get('id') as number }), 1, 'the other member stays');
  });

  test.serial(`${db.name}: onDestroy 'refuse' answers 409 while the record has members, and destroys it once it has none`, async (t) => {
    const club = await schema.Club.create({ name: 'Go' });
    const member = await schema.Member.create({ name: 'Cy' });
    await schema.ClubMember.create({ club_id: club.get('id'), member_id: member.get('id') });
    const id = String(club.get('id'));
    const refused = await t.throwsAsync(api.ClubResource.find({ id }).destroy(), { instanceOf: ConflictError });
    t.regex(refused!.message, /still has members/);
    t.truthy(await schema.Club.findByPk(club.get('id') as number), 'nothing was destroyed');
    t.is(await joinRows({ club_id: club.get('id') as number }), 1);
    t.true(await api.ClubResource.find({ id }).removeFromRelationship('members', { data: [{ type: 'members', id: String(member.get('id')) }] }));
    t.true(await api.ClubResource.find({ id }).destroy());
    t.is(await schema.Club.findByPk(club.get('id') as number), null);
  });

  test.serial(`${db.name}: a relationship with more members than one write may touch is cleared and replaced in one statement each`, async (t) => {
    const club = await schema.Club.create({ name: 'Crowd' });
    const many = await schema.Member.bulkCreate(Array.from({ length: 1_200 }, (_, i) => ({ name: `M${i}` })));
    await schema.ClubMember.bulkCreate(many.map((m) => ({ club_id: club.get('id'), member_id: m.get('id') })));
    const id = String(club.get('id'));
    const kept = many.slice(0, 2).map((m) => ({ type: 'members', id: String(m.get('id')) }));
    t.true(await api.ClubResource.find({ id }).replaceRelationship('members', { data: kept }));
    t.is(await joinRows({ club_id: club.get('id') as number }), 2);
    const leftVersion = await schema.Member.findByPk(many[5]!.get('id') as number);
    t.is(leftVersion!.get('lock_version'), 1, 'a member that left has a new version');
    const keptVersion = await schema.Member.findByPk(many[0]!.get('id') as number);
    t.is(keptVersion!.get('lock_version'), 0, 'a member that stayed keeps its version');
    t.true(await api.ClubResource.find({ id }).replaceRelationship('members', { data: [] }));
    t.is(await joinRows({ club_id: club.get('id') as number }), 0);
  });
}
