import test from 'ava';
import { Sequelize } from 'sequelize';
import { ServiceUnavailable } from '../../../core/index.ts';
import { createApp } from '../../../examples/employee-directory/app.ts';
import { serve } from '../../support/http.ts';

/**
 * A database that cannot be reached is a 503 the client may retry, for
 * reads and writes, over HTTP and in-process; never a 500 with the driver's
 * message. Nothing listens on port 1, so the drivers fail as they do
 * against a database that is down.
 */
for (const url of ['postgres://nobody@127.0.0.1:1/none', 'mysql://nobody@127.0.0.1:1/none']) {
  const dialect = url.split(':')[0]!;

  test(`${dialect} down: reads and writes answer 503 with Retry-After and no driver detail`, async (t) => {
    const sequelize = new Sequelize(url, { logging: false, pool: { acquire: 5000 } });
    const client = await serve(createApp(sequelize).app);
    try {
      const read = await client.get('/api/v1/employees?include=positions');
      const write = await client.request('POST', '/api/v1/departments', { data: { type: 'departments', attributes: { name: 'Ops' } } });
      for (const response of [read, write]) {
        t.is(response.status, 503);
        t.like((response.body as { errors: object[] }).errors[0], {
          status: '503', code: 'database_unavailable', title: 'Service Unavailable', meta: { retry_after: 1 },
        });
        t.notRegex(response.text, /ECONNREFUSED|127\.0\.0\.1|SELECT|INSERT|stack/i);
      }
      const raw = await fetch(`${client.baseUrl}/api/v1/employees/1`);
      t.is(raw.headers.get('retry-after'), '1');
    } finally {
      await client.close();
      await sequelize.close();
    }
  });

  test(`${dialect} down: in-process reads reject with ServiceUnavailable, the driver error as its cause`, async (t) => {
    const sequelize = new Sequelize(url, { logging: false, pool: { acquire: 5000 } });
    const { resources } = createApp(sequelize);
    try {
      const error = await t.throwsAsync(resources.EmployeeResource.all({}).data, { instanceOf: ServiceUnavailable });
      t.is(error?.code, 'database_unavailable');
      t.regex(String((error?.cause as Error).message), /ECONNREFUSED|connect/);
    } finally {
      await sequelize.close();
    }
  });
}
