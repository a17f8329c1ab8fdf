import test from 'ava';
import { Sequelize } from 'sequelize';
import { catchEarlyClientErrors } from '../../../plugins/sequelize/postgres-client-errors.ts';
import { testDatabases } from '../../support/databases.ts';

interface Manager {
  lib: { Client: new (config: unknown) => { emit(event: string, error: Error): boolean; listenerCount(event: string): number; _invalid?: boolean }; types: unknown };
}

for (const db of testDatabases('postgres_client_errors').filter((d) => d.name === 'postgres')) {
  test(`${db.name}: a client that errors before Sequelize listens is marked invalid, and the process lives on`, async (t) => {
    const sequelize = new Sequelize(db.url, { logging: false });
    t.teardown(() => sequelize.close());
    const manager = sequelize.connectionManager as unknown as Manager;
    const types = manager.lib.types;
    catchEarlyClientErrors(sequelize);
    catchEarlyClientErrors(sequelize);
    // what the driver does when a FATAL error arrives in the packet that completed the connection
    const client = new manager.lib.Client({});
    t.is(client.listenerCount('error'), 1, 'one listener, however often the guard is applied');
    t.notThrows(() => client.emit('error', new Error('terminating connection due to administrator command')));
    t.true(client._invalid);
    t.is(manager.lib.types, types, 'the driver module is otherwise unchanged');
    const [rows] = await sequelize.query('SELECT 1 AS one');
    t.deepEqual(rows, [{ one: 1 }]);
  });
}

test('other dialects are left as they are', (t) => {
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  const before = (sequelize.connectionManager as unknown as { lib: unknown }).lib;
  catchEarlyClientErrors(sequelize);
  t.is((sequelize.connectionManager as unknown as { lib: unknown }).lib, before);
});
