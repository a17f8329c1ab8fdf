import test from 'ava';
import { ConnectionAcquireTimeoutError, type Sequelize } from 'sequelize';
import { configure } from '../../../core/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { definePeople, PEOPLE, personResource } from '../../support/people.ts';

configure({ databaseTimeout: 0 });

/**
 * Mural takes pooled connections without Sequelize's hook runs while no
 * pool hook is registered (pool-checkout.ts): what Sequelize promises of a
 * checkout must hold all the same.
 */
for (const db of testDatabases('pool_checkout').filter((d) => d.name !== 'sqlite')) {
  const manager = (sequelize: Sequelize) => (sequelize as unknown as { connectionManager: { getConnection(options?: object): Promise<object>; releaseConnection(c: object): unknown } }).connectionManager;

  test.serial(`${db.name}: pool hooks registered at any time run around every checkout of Mural's reads`, async (t) => {
    const sequelize = await openDatabase(db);
    try {
      const People = personResource(await definePeople(sequelize));
      t.is(((await People.all({ sort: 'id' }).data) as unknown[]).length, PEOPLE.length);
      const seen: string[] = [];
      sequelize.addHook('beforePoolAcquire', () => void seen.push('before'));
      sequelize.addHook('afterPoolAcquire', () => void seen.push('after'));
      t.is(((await People.all({ sort: 'id' }).data) as unknown[]).length, PEOPLE.length);
      t.true(seen.length >= 2, `hooks ran: ${seen.join(', ')}`);
      t.deepEqual(seen.slice(0, 2), ['before', 'after']);
    } finally {
      await sequelize.close();
    }
  });

  test.serial(`${db.name}: an exhausted pool still answers Sequelize's ConnectionAcquireTimeoutError`, async (t) => {
    const sequelize = await openDatabase(db, undefined, { pool: { max: 1, acquire: 300 } });
    let release!: () => void;
    let holding: Promise<unknown> = Promise.resolve();
    try {
      const People = personResource(await definePeople(sequelize));
      t.is(((await People.all({ sort: 'id' }).data) as unknown[]).length, PEOPLE.length, 'Mural has prepared the instance');
      holding = sequelize.transaction(() => new Promise<void>((resolve) => (release = resolve)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await t.throwsAsync(manager(sequelize).getConnection({ type: 'SELECT' }), { instanceOf: ConnectionAcquireTimeoutError });
      release();
      await holding;
      const connection = await manager(sequelize).getConnection({ type: 'SELECT' });
      t.truthy(connection, 'the pool serves again once the connection is back');
      await manager(sequelize).releaseConnection(connection);
    } finally {
      release?.();
      await holding;
      await sequelize.close();
    }
  });
}
