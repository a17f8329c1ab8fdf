import test from 'ava';
import { BadRequestError } from '../../../../core/index.ts';
import { testDatabases } from '../../../support/databases.ts';
import { directoryServer } from '../../../support/directory-server.ts';
import { tableCounts } from '../../../support/directory.ts';
import type { HttpResponse } from '../../../support/http.ts';

type ErrorDoc = { errors: Array<{ status: string; code: string; detail: string; source?: { parameter?: string; pointer?: string } }> };

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };

/**
 * Issue #34, finding 5: a body is text in UTF-8 and nothing else. Bytes that
 * are not UTF-8, and `\ud800`-style escapes that decode to a lone surrogate,
 * are a 400 on every route that takes a body, as `%FF` in a query string is;
 * before, they were stored as U+FFFD behind a 201 (and MariaDB echoed the
 * surrogate while its row held U+FFFD).
 */
for (const db of testDatabases('body_encoding')) {
  const { dir, client } = directoryServer(db, 'body_encoding', 5);
  const errorOf = (response: HttpResponse) => (response.body as ErrorDoc).errors[0]!;
  const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

  test.serial(`${db.name}: a body that is not valid UTF-8 is a 400 invalid_encoding on every route that reads one, and nothing is written`, async (t) => {
    const before = await tableCounts(dir.models);
    const invalid = bytes('{"data":{"type":"employees","attributes":{"first_name":"', [0xff, 0xfe], '","last_name":"b"}}}');
    const overlong = bytes('{"data":{"type":"employees","id":"1","attributes":{"first_name":"', [0xc0, 0xaf], '"}}}');
    const encodedSurrogate = bytes('{"data":[{"type":"teams","id":"', [0xed, 0xa0, 0x80], '"}]}');
    const truncated = bytes('{"atomic:operations":[{"op":"add","data":{"type":"departments","attributes":{"name":"', [0xe2, 0x82], '"}}}]}');
    const requests: Array<[string, string, Buffer, Record<string, string>?]> = [
      ['POST', '/api/v1/employees', invalid],
      ['PATCH', '/api/v1/employees/1', overlong],
      ['POST', '/api/v1/employees/1/relationships/teams', encodedSurrogate],
      ['PATCH', '/api/v1/employees/1/relationships/teams', encodedSurrogate],
      ['DELETE', '/api/v1/employees/1/relationships/teams', encodedSurrogate],
      ['POST', '/api/v1/operations', truncated, ATOMIC],
    ];
    for (const [method, path, body, headers] of requests) {
      const response = await client.request(method, path, body, headers);
      t.is(response.status, 400, `${method} ${path}`);
      t.like(errorOf(response), { code: 'invalid_encoding', detail: 'The body is not valid UTF-8', source: { pointer: '' } }, `${method} ${path}`);
    }
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: valid UTF-8 beyond ASCII, a byte order mark and escaped surrogate pairs are stored and answered as sent`, async (t) => {
    const name = 'Zoë 😀 漢';
    const body = bytes([0xef, 0xbb, 0xbf], `{"data":{"type":"employees","attributes":{"first_name":"${name}","last_name":"\\ud83d\\ude00"}}}`);
    const response = await client.request('POST', '/api/v1/employees', body);
    t.is(response.status, 201);
    const { id, attributes } = (response.body as { data: { id: string; attributes: Record<string, unknown> } }).data;
    t.like(attributes, { first_name: name, last_name: '😀' });
    const row = (await dir.models.Employee.findByPk(id))!;
    t.is(row.first_name, name);
    t.is(row.last_name, '😀');
  });

  test.serial(`${db.name}: an escape decoding to a lone surrogate is a 400 pointing at the member, on every route that reads a body`, async (t) => {
    const before = await tableCounts(dir.models);
    const cases: Array<[string, string, string, string, Record<string, string>?]> = [
      ['POST', '/api/v1/employees', '{"data":{"type":"employees","attributes":{"first_name":"\\ud800x","last_name":"b"}}}', '/data/attributes/first_name'],
      ['PATCH', '/api/v1/employees/1', '{"data":{"type":"employees","id":"1","attributes":{"last_name":"a\\udfff"}}}', '/data/attributes/last_name'],
      [
        'POST', '/api/v1/employees',
        '{"data":{"type":"employees","attributes":{"first_name":"a","last_name":"b"},"relationships":{"positions":{"data":[{"type":"positions","temp-id":"p","method":"create"}]}}},"included":[{"type":"positions","temp-id":"p","attributes":{"title":"\\udc00\\ud800"}}]}',
        '/included/0/attributes/title',
      ],
      ['POST', '/api/v1/employees/1/relationships/teams', '{"data":[{"type":"teams","id":"1","meta":{"note":"\\ud800"}}]}', '/data/0/meta/note'],
      ['PATCH', '/api/v1/departments/1', '{"data":{"type":"departments","id":"1","attributes":{"\\ud800":"x"}}}', '/data/attributes/\ud800'],
      [
        'POST', '/api/v1/operations',
        '{"atomic:operations":[{"op":"add","data":{"type":"departments","attributes":{"name":"R\\ud800D"}}}]}',
        '/atomic:operations/0/data/attributes/name', ATOMIC,
      ],
    ];
    for (const [method, path, body, pointer, headers] of cases) {
      const response = await client.request(method, path, body, headers);
      t.is(response.status, 400, `${method} ${path}`);
      t.like(errorOf(response), { code: 'invalid_character', source: { pointer } }, `${method} ${path}`);
    }
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: in-process, a string holding a lone surrogate is refused the same way`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const before = await tableCounts(dir.models);
    const created = EmployeeResource.build({ data: { type: 'employees', attributes: { first_name: '\ud800x', last_name: 'b' } } });
    const error = await t.throwsAsync(created.save(), { instanceOf: BadRequestError });
    t.like(error!.toJsonapiErrors()[0], {
      status: '400', code: 'invalid_character', source: { pointer: '/data/attributes/first_name' },
    });
    t.deepEqual(await tableCounts(dir.models), before);
  });
}
