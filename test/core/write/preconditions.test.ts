import test from 'ava';
import { BadRequestError, ifMatchVersions, noneMatch, PreconditionFailed, versionOfTag, withContext } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';

/**
 * Writes conditional on a record's version, in-process: `ifMatch` on
 * update, destroy and relationship writes, `version()` to read it, the same
 * rules as HTTP's If-Match without HTTP.
 */
for (const db of testDatabases('preconditions')) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'preconditions', 12);
  });
  test.after.always(async () => dir?.sequelize.close());
  const age = (id: number, value: number) => ({ data: { type: 'employees', id: String(id), attributes: { age: value } } });

  test.serial(`${db.name}: version() is the record's lock_version; ifMatch with it writes, a stale one throws PreconditionFailed`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const version = await EmployeeResource.find({ id: 1 }).version();
    t.is(version, String((await dir.models.Employee.findByPk(1))!.lock_version));
    t.true(await EmployeeResource.find({ id: 1 }).update(age(1, 31), { ifMatch: [version!] }));
    t.is(await EmployeeResource.find({ id: 1 }).version(), String(Number(version) + 1));
    const error = await t.throwsAsync(EmployeeResource.find({ id: 1 }).update(age(1, 32), { ifMatch: [version!] }), { instanceOf: PreconditionFailed });
    t.is(error!.status, 412);
    t.deepEqual(error!.toJsonapiErrors()[0]!.source, { header: 'If-Match' });
    t.is((await dir.models.Employee.findByPk(1))!.age, 31);
    const counts = await tableCounts(dir.models);
    await t.throwsAsync(EmployeeResource.find({ id: 1 }).destroy({ ifMatch: [version!] }), { instanceOf: PreconditionFailed });
    t.deepEqual(await tableCounts(dir.models), counts);
    t.true(await EmployeeResource.find({ id: 1 }).destroy({ ifMatch: '*' }));
  });

  test.serial(`${db.name}: relationship writes take ifMatch on the parent, and make a new version of it`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const employee = EmployeeResource.find({ id: 2 });
    const version = (await employee.version())!;
    await t.throwsAsync(employee.addToRelationship('teams', { data: [{ type: 'teams', id: '1' }] }, { ifMatch: ['12345'] }), { instanceOf: PreconditionFailed });
    t.true(await employee.replaceRelationship('teams', { data: [{ type: 'teams', id: '2' }] }, { ifMatch: [version] }));
    t.is(await EmployeeResource.find({ id: 2 }).version(), String(Number(version) + 1));
  });

  test.serial(`${db.name}: a Resource without a version takes '*' only`, async (t) => {
    const { TeamResource } = dir.resources;
    t.is(await TeamResource.find({ id: 1 }).version(), undefined);
    const body = { data: { type: 'teams', id: '1', attributes: { name: 'Platform' } } };
    const error = await t.throwsAsync(TeamResource.find({ id: 1 }).update(body, { ifMatch: ['1'] }), { instanceOf: BadRequestError });
    t.is(error!.code, 'precondition_unsupported');
    t.true(await TeamResource.find({ id: 1 }).update(body, { ifMatch: '*' }));
  });

  test.serial(`${db.name}: ifNoneMatch: '*' refuses any write to a record that exists, a version list the versions it names`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const employee = EmployeeResource.find({ id: 4 });
    const version = (await employee.version())!;
    const counts = await tableCounts(dir.models);
    const refused = await t.throwsAsync(employee.update(age(4, 50), { ifNoneMatch: '*' }), { instanceOf: PreconditionFailed });
    t.deepEqual(refused!.toJsonapiErrors()[0]!.source, { header: 'If-None-Match' });
    await t.throwsAsync(employee.destroy({ ifNoneMatch: [version] }), { instanceOf: PreconditionFailed });
    await t.throwsAsync(employee.addToRelationship('teams', { data: [{ type: 'teams', id: '1' }] }, { ifNoneMatch: '*' }), { instanceOf: PreconditionFailed });
    t.deepEqual(await tableCounts(dir.models), counts);
    t.true(await EmployeeResource.find({ id: 4 }).update(age(4, 51), { ifNoneMatch: ['12345'], ifMatch: [version] }));
  });

  test.serial(`${db.name}: the context travels with the write as with any other`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const version = (await EmployeeResource.find({ id: 3 }).version())!;
    const body = { data: { type: 'employees', id: '3', attributes: { salary: '100.00' } } };
    t.true(await withContext({ role: 'admin' }, () => EmployeeResource.find({ id: 3 }).update(body, { ifMatch: [version] })));
  });
}

test('entity tags: If-Match compares the version part of strong tags; If-None-Match whole tags, weakly', (t) => {
  t.deepEqual(ifMatchVersions('"7.abc", W/"8", "9"'), ['7', '9']);
  t.is(ifMatchVersions(' * '), '*');
  t.is(versionOfTag('12.hash'), '12');
  t.false(noneMatch('W/"a.b"', 'a.b'));
  t.false(noneMatch('*', 'x'));
  t.true(noneMatch('"a"', 'a.b'));
  for (const bad of ['7', '"7', '*, "7"', '', ',,']) {
    const error = t.throws(() => ifMatchVersions(bad), { instanceOf: BadRequestError }, bad);
    t.deepEqual(error!.toJsonapiErrors()[0]!.source, { header: 'If-Match' });
  }
  t.throws(() => ifMatchVersions(Array.from({ length: 65 }, (_, i) => `"${i}"`).join(',')), { instanceOf: BadRequestError }, 'the list is bounded');
});
