import test from 'ava';
import {
  BadRequestError, ConflictError, configure, Forbidden, muralConfig, RecordNotFound, RelationshipNotFound, RelationshipWrite, UnsupportedOperation, withContext,
  type RelationshipOperation, type Resource,
} from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';

type Row = { id: number; employee_id?: number | null };
const ADMIN = { role: 'admin' };

/**
 * Relationship writes in-process: each an update of the parent carrying the
 * members to associate and disassociate, through the sideposting engine,
 * hooks included, in one transaction.
 */
for (const db of testDatabases()) {
  let dir: Directory;
  const log: string[] = [];
  let failOn: number | undefined;
  let failCommitOf: number | undefined;
  let Traced: { Employee: typeof Resource; Position: typeof Resource; Team: typeof Resource; Note: typeof Resource; Task: typeof Resource };

  test.before(async () => {
    dir = await openDirectory(db, 'relationship_write', 40);
    const { EmployeeResource, PositionResource, TeamResource, NoteResource, TaskResource } = dir.resources;
    // registered last, each answers to its type everywhere in the directory: every relationship leads to these
    class TracedPosition extends PositionResource {
      static {
        this.type = 'positions';
        this.beforeSave((position: Row) => {
          log.push(`save position ${position.id} of ${position.employee_id}`);
          if (failOn === position.id) throw new Error('the hook failed');
        });
        this.beforeCommit((position: Row) => void log.push(`commit position ${position.id}`));
      }
    }
    class TracedTeam extends TeamResource {
      static {
        this.type = 'teams';
        this.beforeSave((team: Row) => void log.push(`save team ${team.id}`));
      }
    }
    class TracedEmployee extends EmployeeResource {
      static {
        this.type = 'employees';
        this.beforeSave((employee: Row) => void log.push(`save employee ${employee.id}`), { only: ['update'] });
        this.beforeCommit((employee: Row) => {
          log.push(`commit employee ${employee.id}`);
          if (failCommitOf === employee.id) throw new Error('beforeCommit failed');
        });
      }
    }
    class TracedNote extends NoteResource {
      static {
        this.type = 'notes';
        this.beforeSave((note: Row) => void log.push(`save note ${note.id}`));
      }
    }
    Traced = { Employee: TracedEmployee, Position: TracedPosition, Team: TracedTeam, Note: TracedNote, Task: TaskResource };
  });
  test.after.always(async () => dir?.sequelize.close());
  test.beforeEach(() => {
    log.length = 0;
    failOn = undefined;
    failCommitOf = undefined;
  });

  const write = (resource: typeof Resource, id: number, name: string, operation: RelationshipOperation, data: unknown) =>
    new RelationshipWrite(resource, String(id), name, operation, { data });
  const positionsOf = async (employee: number) => (await dir.models.Position.findAll({ where: { employee_id: employee }, order: [['id', 'ASC']] })).map((p) => p.id);
  const teamsOf = async (employee: number) => (await dir.models.EmployeeTeam.findAll({ where: { employee_id: employee }, order: [['team_id', 'ASC']] })).map((m) => m.team_id);
  const selects = () => dir.queries.filter((q) => /\bSELECT\b/.test(q) && !/\bINSERT\b/.test(q)).length;
  const ids = (list: number[]) => list.map((id) => ({ type: 'positions', id: String(id) }));

  test.serial(`${db.name}: POST adds has_many members: each child's key is set, hooks of the parent and the children run`, async (t) => {
    const [moved, other] = await positionsOf(6);
    const before = await positionsOf(5);
    const adding = write(Traced.Employee, 5, 'positions', 'add', ids([moved!, other!]));
    t.true(await adding.save());
    t.deepEqual(await positionsOf(5), [...before, moved!, other!].sort((a, b) => a - b));
    t.deepEqual(log, [
      'save employee 5', `save position ${moved} of 5`, `save position ${other} of 5`, 'commit employee 5', `commit position ${moved}`, `commit position ${other}`,
    ]);
    t.true(await adding.asRequested());
  });

  test.serial(`${db.name}: one query finds the parent and one all named members, however many`, async (t) => {
    const counted = async (members: number[]) => {
      dir.resetQueries();
      t.true(await write(Traced.Employee, 7, 'positions', 'add', ids(members)).save());
      return selects();
    };
    const [one, ...more] = await positionsOf(8);
    t.is(await counted([one!]), 2);
    t.is(await counted([...more, ...(await positionsOf(9))]), 2);
  });

  test.serial(`${db.name}: DELETE removes members only: a named record of another parent keeps its key`, async (t) => {
    const before = await positionsOf(10);
    const gone = before[0]!;
    const elsewhere = (await positionsOf(12))[0]!;
    const removing = write(Traced.Employee, 10, 'positions', 'remove', ids([gone, elsewhere]));
    t.true(await removing.save());
    t.deepEqual(await positionsOf(10), before.slice(1));
    t.is((await dir.models.Position.findByPk(gone))!.employee_id, null);
    t.true((await positionsOf(12)).includes(elsewhere), 'not a member: left alone');
    t.deepEqual(log.filter((l) => l.startsWith('save position')), [`save position ${gone} of null`]);
    t.true(await removing.asRequested());
  });

  test.serial(`${db.name}: PATCH replaces every member: the others are disassociated, in one transaction`, async (t) => {
    const old = await positionsOf(13);
    const incoming = (await positionsOf(14)).slice(0, 1);
    const replacing = write(Traced.Employee, 13, 'positions', 'replace', ids([...incoming, old[0]!]));
    t.true(await replacing.save());
    t.deepEqual(await positionsOf(13), [...incoming, old[0]!].sort((a, b) => a - b));
    for (const id of old.slice(1)) t.is((await dir.models.Position.findByPk(id))!.employee_id, null);
    t.true(await replacing.asRequested());
    t.true(await write(Traced.Employee, 13, 'positions', 'replace', []).save());
    t.deepEqual(await positionsOf(13), []);
  });

  test.serial(`${db.name}: many_to_many adds, removes and replaces join rows, never twice the same`, async (t) => {
    const start = await teamsOf(15);
    const extra = [1, 2, 3].filter((id) => !start.includes(id));
    t.true(await write(Traced.Employee, 15, 'teams', 'add', [...extra, start[0]!].map((id) => ({ type: 'teams', id }))).save());
    t.deepEqual(await teamsOf(15), [...new Set([...start, ...extra])].sort((a, b) => a - b));
    t.true(log.includes(`save team ${extra[0]}`), 'a linked record is saved, its hooks run, as sideposting links one');
    t.true(await write(Traced.Employee, 15, 'teams', 'remove', [{ type: 'teams', id: extra[0] }]).save());
    t.false((await teamsOf(15)).includes(extra[0]!));
    t.true(await write(Traced.Employee, 15, 'teams', 'replace', [{ type: 'teams', id: 4 }, { type: 'teams', id: '5' }]).save());
    t.deepEqual(await teamsOf(15), [4, 5]);
  });

  test.serial(`${db.name}: belongs_to: PATCH sets the key, null clears it; the record's hooks run`, async (t) => {
    const position = (await positionsOf(16))[0]!;
    const setting = write(Traced.Position, position, 'employee', 'replace', { type: 'employees', id: '17' });
    t.true(await setting.save());
    t.is((await dir.models.Position.findByPk(position))!.employee_id, 17);
    t.true(log.includes('save employee 17') && log.includes(`save position ${position} of 17`));
    t.true(await setting.asRequested());
    t.true(await write(Traced.Position, position, 'department', 'replace', null).save());
    t.is((await dir.models.Position.findByPk(position))!.department_id, null);
  });

  test.serial(`${db.name}: has_one: PATCH moves the record in and the current one out; a record the params block hides is not what was asked`, async (t) => {
    const current = (await dir.models.Position.findOne({ where: { employee_id: 18, active: true } }))!;
    const incoming = (await dir.models.Position.findOne({ where: { employee_id: 19, active: true } }))!;
    const setting = write(Traced.Employee, 18, 'current_position', 'replace', { type: 'positions', id: String(incoming.id) });
    t.true(await setting.save());
    t.is((await dir.models.Position.findByPk(incoming.id))!.employee_id, 18);
    t.is((await dir.models.Position.findByPk(current.id))!.employee_id, null);
    t.true(await setting.asRequested());
    const inactive = (await dir.models.Position.findOne({ where: { employee_id: 20, active: false } }))!;
    const hidden = write(Traced.Employee, 18, 'current_position', 'replace', { type: 'positions', id: String(inactive.id) });
    t.true(await hidden.save());
    t.is((await dir.models.Position.findByPk(inactive.id))!.employee_id, 18);
    t.false(await hidden.asRequested(), 'current_position now reads null: not what the request said');
    t.true(await write(Traced.Employee, 18, 'current_position', 'replace', null).save());
  });

  test.serial(`${db.name}: polymorphic relationships: notable moves a note to a team; notes join an employee`, async (t) => {
    const note = (await dir.models.Note.findOne({ where: { notable_type: 'employees' } }))!;
    await withContext(ADMIN, async () => {
      t.true(await write(Traced.Note, note.id, 'notable', 'replace', { type: 'teams', id: '3' }).save());
      t.like((await dir.models.Note.findByPk(note.id))!.get(), { notable_type: 'teams', notable_id: 3 });
      t.true(await write(Traced.Employee, 22, 'notes', 'add', [{ type: 'notes', id: String(note.id) }]).save());
      t.like((await dir.models.Note.findByPk(note.id))!.get(), { notable_type: 'employees', notable_id: 22 });
    });
  });

  test.serial(`${db.name}: tasks: members of every child type; one named by its parent type is added but renders as its child`, async (t) => {
    const bug = (await dir.models.Task.findOne({ where: { type: 'bugs' } }))!;
    const feature = (await dir.models.Task.findOne({ where: { type: 'features' } }))!;
    const adding = write(Traced.Employee, 23, 'tasks', 'add', [{ type: 'bugs', id: String(bug.id) }, { type: 'features', id: String(feature.id) }]);
    t.true(await adding.save());
    t.true(await adding.asRequested());
    const epic = (await dir.models.Task.findOne({ where: { type: 'epics' } }))!;
    const asParent = write(Traced.Employee, 23, 'tasks', 'add', [{ type: 'tasks', id: String(epic.id) }]);
    t.true(await asParent.save());
    t.is((await dir.models.Task.findByPk(epic.id))!.employee_id, 23);
    t.false(await asParent.asRequested(), 'the relationship holds epics:<id>, not tasks:<id>');
  });

  test.serial(`${db.name}: any failure rolls everything back: a throwing hook, an invalid member, a failing beforeCommit`, async (t) => {
    const before = await tableCounts(dir.models);
    const [first, second] = await positionsOf(24);
    const snapshot = await dir.models.Position.findAll({ order: [['id', 'ASC']] }).then((rows) => rows.map((r) => r.employee_id));
    failOn = second;
    await t.throwsAsync(write(Traced.Employee, 25, 'positions', 'add', ids([first!, second!])).save(), { message: 'the hook failed' });
    t.deepEqual(await dir.models.Position.findAll({ order: [['id', 'ASC']] }).then((rows) => rows.map((r) => r.employee_id)), snapshot);
    // a note cannot lose its notable: the 422 of the invalid member at its identifier, nothing written
    const note = (await dir.models.Note.findOne({ where: { notable_type: 'employees', notable_id: 25 } }))!;
    const removing = withContext(ADMIN, () => write(Traced.Employee, 25, 'notes', 'remove', [{ type: 'notes', id: String(note.id) }]));
    t.false(await removing.save());
    t.like(removing.errors[0], { status: '422', source: { pointer: '/data/0' }, meta: { relationship: { name: 'notes', type: 'notes', id: String(note.id), attribute: 'notable_id' } } });
    t.like((await dir.models.Note.findByPk(note.id))!.get(), { notable_type: 'employees', notable_id: 25 });
    failCommitOf = 27;
    const teams = await teamsOf(27);
    const other = [8, 9].find((id) => !teams.includes(id))!;
    await t.throwsAsync(write(Traced.Employee, 27, 'teams', 'replace', [{ type: 'teams', id: String(other) }]).save(), { message: 'beforeCommit failed' });
    t.true(log.includes('commit employee 27'), 'the write got as far as beforeCommit');
    t.deepEqual(await teamsOf(27), teams);
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: refusals: unknown relationship, unsupported operation, unwritable, wrong type, missing records, malformed bodies`, async (t) => {
    const { EmployeeResource, NoteResource, PositionResource } = dir.resources;
    await t.throwsAsync(write(EmployeeResource, 1, 'bosses', 'add', []).save(), { instanceOf: RelationshipNotFound });
    await t.throwsAsync(write(EmployeeResource, 1, 'current_position', 'add', []).save(), { instanceOf: UnsupportedOperation });
    await t.throwsAsync(write(PositionResource, 1, 'employee', 'remove', []).save(), { instanceOf: UnsupportedOperation });
    await t.throwsAsync(write(NoteResource, 1, 'notable', 'replace', null).save(), { instanceOf: Forbidden });
    // a guest may neither read nor write notes: they are a relationship that does not exist
    const hidden = await t.throwsAsync(write(EmployeeResource, 1, 'notes', 'add', []).save(), { instanceOf: RelationshipNotFound });
    t.is(hidden.message, 'No relationship "notes" on employees');
    // one the caller may read but not write is no secret: a 422
    class ReadOnlyTeams extends EmployeeResource {
      static {
        this.type = 'read_only_teams';
        this.manyToMany('teams', { foreignKey: { employee_teams: 'employee_id' }, writable: false });
      }
    }
    const readOnly = write(ReadOnlyTeams, 1, 'teams', 'add', []);
    t.false(await readOnly.save());
    t.like(readOnly.errors[0], { status: '422', source: { pointer: '/data' }, meta: { code: 'unwritable_relationship' } });
    const wrongType = await t.throwsAsync(write(EmployeeResource, 1, 'positions', 'add', [{ type: 'teams', id: '1' }]).save(), { instanceOf: ConflictError });
    t.is(wrongType.pointer, '/data/0/type');
    const missing = await t.throwsAsync(write(EmployeeResource, 1, 'positions', 'add', ids([1, 99999])).save(), { instanceOf: RecordNotFound });
    t.is(missing.pointer, '/data/1');
    await t.throwsAsync(write(EmployeeResource, 99999, 'positions', 'add', ids([1])).save(), { instanceOf: RecordNotFound });
    for (const [body, pointer] of [[{}, ''], [{ data: { type: 'positions', id: '1' } }, '/data'], [{ data: [{ type: 'positions' }] }, '/data/0/id'], [{ data: [{ type: 'positions', id: 'x' }] }, '/data/0/id']] as const) {
      const error = await t.throwsAsync(new RelationshipWrite(EmployeeResource, '1', 'positions', 'add', body).save(), { instanceOf: BadRequestError });
      t.is(error.pointer, pointer, JSON.stringify(body));
    }
  });

  test.serial(`${db.name}: a replacement touching more than maxWriteRecords records is a 400, before any change`, async (t) => {
    const limit = muralConfig.maxWriteRecords;
    configure({ maxWriteRecords: 1 });
    try {
      const owner = (await dir.models.Position.findAll()).reduce((counts, p) => counts.set(p.employee_id, (counts.get(p.employee_id) ?? 0) + 1), new Map<number | null, number>());
      const many = [...owner].find(([id, count]) => id !== null && count >= 2)![0]!;
      const before = await positionsOf(many);
      const error = await t.throwsAsync(write(Traced.Employee, many, 'positions', 'replace', []).save(), { instanceOf: BadRequestError });
      t.is(error.code, 'too_many_records');
      t.deepEqual(await positionsOf(many), before);
    } finally {
      configure({ maxWriteRecords: limit });
    }
  });

  test.serial(`${db.name}: the proxy's replaceRelationship, addToRelationship and removeFromRelationship`, async (t) => {
    const proxy = Traced.Employee.find({ id: 26 });
    t.true(await proxy.replaceRelationship('teams', { data: [{ type: 'teams', id: '6' }] }));
    t.true(await proxy.addToRelationship('teams', { data: [{ type: 'teams', id: '7' }] }));
    t.true(await proxy.removeFromRelationship('teams', { data: [{ type: 'teams', id: '6' }] }));
    t.deepEqual(await teamsOf(26), [7]);
    await t.throwsAsync(proxy.addToRelationship('notes', { data: [] }), { instanceOf: RelationshipNotFound });
    t.true(await withContext(ADMIN, () => proxy.addToRelationship('notes', { data: [] })));
    t.deepEqual((await proxy.related('teams').toLinkage()).data, [{ type: 'teams', id: '7' }]);
  });
}
