import test from 'ava';
import { runMural } from '../support/cli.ts';

/** The CLI and row rules: `mural guards` lists them, `mural query --context` runs as someone. */
const config = ['--config', 'test/support/tenant-config.ts'];

test.serial('mural guards lists each row rule with its action', async (t) => {
  const json = JSON.parse((await runMural(['guards', '--format', 'json', ...config])).out) as Array<Record<string, string>>;
  const rules = json.filter((row) => row.kind === 'rule').map((row) => `${row.resource} ${row.name}: ${row.guard}`);
  t.true(rules.includes('EmployeeResource read: company_id = context.user.companyId'), rules.join('\n'));
  t.true(rules.includes('EmployeeResource update: a function of the context'));
  t.true(rules.includes('NoteResource read: employee.company_id = context.user.companyId or public = true'));
  t.true(rules.includes('TeamResource link: open = true'));
  const table = await runMural(['guards', ...config]);
  t.regex(table.out, /NoteResource\s+rule\s+update\s+allow\s+author_id = context\.user\.employeeId/);
});

test.serial('mural query --context runs the query as someone; without it, a rule naming the context admits nothing', async (t) => {
  const names = async (...extra: string[]) => {
    const result = await runMural(['query', 'employees', '--sort', 'id', '--format', 'json', ...extra, ...config]);
    t.is(result.code, 0, result.err);
    return (JSON.parse(result.out) as { data: Array<{ name: string }> }).data.map((record) => record.name);
  };
  t.deepEqual(await names('--context', '{"user":{"companyId":2}}'), ['Linus', 'Eve']);
  t.deepEqual(await names('--context', '{"user":{"companyId":1}}'), ['Ada', 'Grace', 'Mallory']);
  t.deepEqual(await names(), []);
  t.deepEqual(await names('--context', '{"user":{"companyId":1},"__proto__":{"companyId":2}}'), ['Ada', 'Grace', 'Mallory']);
  const bad = await runMural(['query', 'employees', '--context', '[1]', ...config]);
  t.is(bad.code, 2);
  t.regex(bad.err, /--context must be a JSON object/);
  const broken = await runMural(['query', 'employees', '--context', '{user:', ...config]);
  t.is(broken.code, 2);
  t.regex(broken.err, /--context must be a JSON object: /);
});
