import test from 'ava';
import { withContext } from '../../../core/index.ts';
import { directoryServer } from '../../support/directory-server.ts';

/**
 * A serializer's layout (which attributes and relationships a record shows)
 * is kept between requests, and reused only while every model-less guard it
 * consulted answers the same. (SQLite stands for every database here.)
 */
const { dir } = directoryServer({ name: 'sqlite', url: ':memory:' }, 'serializer_layout', 10);

type Doc = { data: Array<{ attributes: Record<string, unknown>; relationships?: Record<string, unknown> }> };

const render = async (admin: boolean): Promise<Doc> => {
  const read = () => dir.resources.EmployeeResource.all({ page: { size: 3 } }).toJsonapi() as Promise<Doc>;
  return admin ? withContext({ role: 'admin' }, read) : read();
};

test.serial("an admin's layout never serves a guest, nor a guest's an admin, whatever the order", async (t) => {
  for (const admin of [true, false, true, false, false, true]) {
    const doc = await render(admin);
    t.is(doc.data.every((record) => 'salary' in record.attributes), admin, admin ? 'an admin sees salaries' : 'a guest sees none');
    t.is(doc.data.every((record) => 'notes' in (record.relationships ?? {})), admin, 'the notes relationship follows its guard too');
  }
});

test.serial('guests and admins rendering at once each get their own layout', async (t) => {
  const roles = Array.from({ length: 30 }, (_, i) => i % 3 === 0);
  const docs = await Promise.all(roles.map(render));
  docs.forEach((doc, i) => t.is(doc.data.every((record) => 'salary' in record.attributes), roles[i]));
});
