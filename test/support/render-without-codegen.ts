/**
 * Run by test/core/render/record-writer.test.ts in a child process, with and
 * without `--disallow-code-generation-from-strings`: prints, as JSON,
 * whether the employees' record writer was generated, and each query's
 * document as text and as the stringified object.
 */
import { parseQueryString, withContext, type QueryParams } from '../../core/index.ts';
import { recordWriter } from '../../core/render/record-writer.ts';
import { serializerLayout } from '../../core/render/serializer-layout.ts';
import { openDirectory } from './directory.ts';

const QUERIES = ['include=positions.department,teams&page[size]=10', 'fields[employees]=first_name&include=notes&page[size]=4', 'sort=-age&page[size]=3'];

const dir = await openDirectory({ name: 'sqlite', url: ':memory:' }, 'without_codegen', 20);
const { EmployeeResource } = dir.resources;
const texts: string[] = [];
const objects: string[] = [];
await withContext({ role: 'admin' }, async () => {
  for (const query of QUERIES) {
    const params = parseQueryString(query) as QueryParams;
    const request = { path: '/api/v1/employees', query, action: 'index' as const };
    texts.push(await EmployeeResource.all(params, undefined, { request }).toJsonapiText());
    objects.push(JSON.stringify(await EmployeeResource.all(params, undefined, { request }).toJsonapi()));
  }
});
const generated = recordWriter(serializerLayout(new EmployeeResource()), EmployeeResource.type) !== undefined;
await dir.sequelize.close();
process.stdout.write(JSON.stringify({ generated, texts, objects }));
