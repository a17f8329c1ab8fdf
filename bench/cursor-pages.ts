import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../examples/employee-directory/app.ts';
import { connect } from '../examples/employee-directory/db/connection.ts';
import { parseQueryString } from '../core/index.ts';
import { alternate, type Timing } from './measure.ts';

const PAGE_SIZE = 20;
const CHUNK = 2000;

export interface CursorPageTimings {
  records: number;
  lastPage: number;
  timings: Record<string, Timing>;
}

/**
 * Scenario 7: the first and the last page of `records` employees sorted by
 * id, by offset (`page[number]`) and by cursor (`page[after]`). An offset
 * page reads past every record before it; a cursor page seeks to its
 * position through the primary key, so its time stays flat.
 */
export async function cursorPages(records: number): Promise<CursorPageTimings> {
  const dir = join(tmpdir(), `mural-bench-cursor-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const sequelize = connect(`sqlite:${join(dir, 'cursor.db')}`);
  try {
    const { models, resources } = createApp(sequelize);
    await sequelize.sync({ force: true });
    const created = new Date(Date.UTC(2020, 0, 1));
    for (let start = 0; start < records; start += CHUNK) {
      const rows = Array.from({ length: Math.min(CHUNK, records - start) }, (_, i) => ({
        first_name: `First ${start + i}`, last_name: `Last ${(start + i) % 977}`, age: (start + i) % 50 === 0 ? null : 20 + ((start + i) % 45), created_at: created, updated_at: created,
      }));
      await models.Employee.bulkCreate(rows);
    }
    const { EmployeeResource } = resources;
    const page = (query: string) => {
      const request = { path: '/api/v1/employees', query, action: 'index' as const };
      return () => EmployeeResource.all(parseQueryString(query), undefined, { request }).toJsonapi();
    };
    const lastPage = Math.ceil(records / PAGE_SIZE);
    // the record just before the last page: the first of a one-longer page read back from the end
    const before = await EmployeeResource.all({ sort: 'id', page: { size: records - (lastPage - 1) * PAGE_SIZE + 1, before: '' } }).cursors;
    const contenders = {
      offsetFirst: page(`sort=id&page[size]=${PAGE_SIZE}&page[number]=1`),
      offsetLast: page(`sort=id&page[size]=${PAGE_SIZE}&page[number]=${lastPage}`),
      cursorFirst: page(`sort=id&page[size]=${PAGE_SIZE}&page[after]=`),
      cursorLast: page(`sort=id&page[size]=${PAGE_SIZE}&page[after]=${before!.prev}`),
    };
    const [offsetLast, cursorLast] = await Promise.all([contenders.offsetLast(), contenders.cursorLast()]);
    // the same records; a cursor page's also carry their own cursor (meta.page.cursor)
    const recordsShown = (doc: { data: unknown }) => JSON.stringify((doc.data as Array<{ id: string; attributes: unknown }>).map(({ id, attributes }) => [id, attributes]));
    if (recordsShown(offsetLast) !== recordsShown(cursorLast)) throw new Error('the last page by cursor must be the last page by offset');
    return { records, lastPage, timings: await alternate(contenders, 7, 5, 300) };
  } finally {
    await sequelize.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
