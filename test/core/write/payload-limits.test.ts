import test from 'ava';
import { configure, muralConfig, type WritePayload } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';

type Json = Record<string, unknown>;

/** A document as an HTTP body or a JavaScript caller hands it over: its shape is checked when it is saved. */
const unchecked = (document: unknown) => document as WritePayload;

/** A chain employee → position → department → position … of sideposted records, `length` deep. */
function chain(length: number): Json {
  const included: Json[] = [];
  for (let i = 0; i < length; i++) {
    const position = i % 2 === 0;
    const next = i + 1 < length ? { [position ? 'department' : 'positions']: { data: position ? { type: 'departments', 'temp-id': `t${i + 1}`, method: 'create' } : [{ type: 'positions', 'temp-id': `t${i + 1}`, method: 'create' }] } } : {};
    included.push({ type: position ? 'positions' : 'departments', 'temp-id': `t${i}`, attributes: position ? { title: 'T' } : { name: 'D' }, relationships: next });
  }
  return {
    data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 't0', method: 'create' }] } } },
    included,
  };
}

/** Write documents that would cost unbounded work are refused before anything is written. */
for (const db of testDatabases('payload_limits')) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'payload_limits', 5);
  });
  test.after.always(async () => dir?.sequelize.close());

  const refuse = async (t: import('ava').ExecutionContext, payload: unknown, expected: Json) => {
    const before = await tableCounts(dir.models);
    const error = await t.throwsAsync(dir.resources.EmployeeResource.build(unchecked(payload)).save());
    t.like(error, expected);
    t.deepEqual(await tableCounts(dir.models), before);
  };

  test.serial(`${db.name}: temp-ids that loop back through their own relationships are a 400 relationship_cycle`, async (t) => {
    const payload = chain(2);
    const department = (payload.included as Json[])[1]!;
    department.relationships = { positions: { data: [{ type: 'positions', 'temp-id': 't0', method: 'create' }] } };
    await refuse(t, payload, { status: 400, code: 'relationship_cycle', pointer: '/included/1/relationships/positions/data/0' });
  });

  test.serial(`${db.name}: a record included twice from different parents is written once`, async (t) => {
    const payload = chain(2);
    (payload.data as Json).relationships = {
      positions: { data: [{ type: 'positions', 'temp-id': 't0', method: 'create' }] },
    };
    (payload.included as Json[]).push({ type: 'positions', 'temp-id': 'other', attributes: { title: 'O' }, relationships: { department: { data: { type: 'departments', 'temp-id': 't1', method: 'create' } } } });
    ((payload.data as Json).relationships as Json).positions = { data: [{ type: 'positions', 'temp-id': 't0', method: 'create' }, { type: 'positions', 'temp-id': 'other', method: 'create' }] };
    const before = await dir.models.Department.count();
    t.true(await dir.resources.EmployeeResource.build(unchecked(payload)).save());
    t.is(await dir.models.Department.count(), before + 1);
  });

  test.serial(`${db.name}: sideposted records nested deeper than maxDocumentDepth are a 400 graph_too_deep`, async (t) => {
    await refuse(t, chain(muralConfig.maxDocumentDepth + 1), { status: 400, code: 'graph_too_deep' });
    t.true(await dir.resources.EmployeeResource.build(unchecked(chain(6))).save());
  });

  test.serial(`${db.name}: a write touching more than maxWriteRecords records is a 400 too_many_records`, async (t) => {
    const previous = muralConfig.maxWriteRecords;
    configure({ maxWriteRecords: 5 });
    try {
      await refuse(t, chain(5), { status: 400, code: 'too_many_records', pointer: '/included/4' });
      t.true(await dir.resources.EmployeeResource.build(unchecked(chain(4))).save());
    } finally {
      configure({ maxWriteRecords: previous });
    }
  });

  test.serial(`${db.name}: a document nested deeper than maxDocumentDepth is a 400 document_too_deep, however deep`, async (t) => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    await refuse(t, { data: { type: 'employees', attributes: { first_name: deep } } }, { status: 400, code: 'document_too_deep' });
  });
}
