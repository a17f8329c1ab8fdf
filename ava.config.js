/**
 * ava's settings. A file named `*.servers.test.ts` tests what exists only on
 * a database server (PostgreSQL, MySQL/MariaDB), so it runs only when
 * MURAL_TEST_POSTGRES or MURAL_TEST_MYSQL names one: on SQLite alone it
 * would declare no test, which ava reports as a failure-looking
 * "No tests found".
 */
const servers = Boolean(process.env.MURAL_TEST_POSTGRES || process.env.MURAL_TEST_MYSQL);

export default {
  files: ['test/**/*.test.ts', ...(servers ? [] : ['!test/**/*.servers.test.ts'])],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  timeout: '2m',
};
