import test from 'ava';
import express from 'express';
import type { Sequelize } from 'sequelize';
import { splitFilterValue } from '../../../core/query/filter-values.ts';
import { resolveFilters } from '../../../core/query/resolved-filter.ts';
import { muralRouter } from '../../../plugins/express/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { LEAK, num, ORDERED, PAYLOADS, TEXT, type Compare } from '../../support/injection.ts';
import { definePeople, personResource, type Person } from '../../support/people.ts';

/**
 * Injection through every built-in operator (and its `not_` form) of every
 * scalar type, over HTTP, on every database: a payload is either compared as
 * data — the rows returned are exactly those a literal comparison selects —
 * or rejected with a 400 naming the parameter. Never a 500, never SQL in the
 * body, and the table keeps its rows.
 */

/** How a literal comparison reads each type's operators. */
const BY_TYPE: Record<string, Record<string, Compare>> = {
  string: TEXT,
  uuid: { eq: (r, v) => r === v },
  string_enum: { eq: TEXT.eq!, eql: TEXT.eql! },
  integer_enum: { eq: ORDERED.eq! },
  integer: ORDERED,
  big_decimal: ORDERED,
  float: ORDERED,
  date: ORDERED,
  datetime: ORDERED,
  boolean: { eq: (r, v) => Boolean(r) === v },
  hash: { eq: (r, v) => JSON.stringify(r) === JSON.stringify(v) },
};

type Doc = { data?: Array<{ id: string }>; errors?: Array<{ source?: { parameter?: string } }> };

for (const db of testDatabases('injection_types')) {
  let sequelize: Sequelize;
  let People: ReturnType<typeof personResource>;
  let model: typeof Person;
  let client: HttpClient;
  let rows: Array<Record<string, unknown>>;
  test.before(async () => {
    sequelize = await openDatabase(db, 'injection_types');
    model = await definePeople(sequelize);
    People = personResource(model);
    rows = (await model.findAll()).map((p) => p.get({ plain: true }) as Record<string, unknown>);
    client = await serve(express().use(muralRouter({ resources: [People] })));
  });
  test.after.always(async () => {
    await client?.close();
    await sequelize?.close();
  });

  const attributes = ['name', 'age', 'salary', 'rating', 'active', 'born_on', 'seen_at', 'token', 'status', 'level', 'profile'];

  for (const attribute of attributes) {
    test.serial(`${db.name}: every operator of ${attribute} takes every payload as data or rejects it`, async (t) => {
      const filter = resolveFilters(People.config).get(attribute)!;
      const compare = BY_TYPE[filter.typeName]!;
      for (const name of filter.operators.keys()) {
        const negated = name.startsWith('not_');
        const positive = compare[negated ? name.slice(4) : name]!;
        for (const payload of PAYLOADS) {
          const parameter = `filter[${attribute}][${name}]`;
          const response = await client.get(`/people?${parameter}=${encodeURIComponent(payload)}&page[size]=100`);
          const label = `${parameter}=${payload.slice(0, 40)}`;
          t.false(LEAK.test(response.text), `${label}: ${response.text.slice(0, 200)}`);
          let values: unknown[] | undefined;
          try {
            const rules = { single: filter.single, allowNil: filter.allowNil, json: filter.typeName === 'hash' };
            values = splitFilterValue(payload, rules, parameter).map((v) => filter.valueType.params(v));
            if (filter.allow) values = values.every((v) => filter.allow!.some((a) => num(a) === num(v) || a === v)) ? values : undefined;
          } catch {
            values = undefined;
          }
          const doc = response.body as Doc;
          if (response.status !== 200) {
            t.is(response.status, 400, `${label}: ${response.text.slice(0, 200)}`);
            t.is(doc.errors?.[0]?.source?.parameter, parameter, label);
            t.is(values, undefined, `${label} is a valid value and was rejected`);
            continue;
          }
          t.not(values, undefined, `${label} should have been rejected`);
          const matches = (row: Record<string, unknown>) => row[attribute] !== null && values!.some((v) => positive(row[attribute], v));
          const expected = rows.filter((row) => (negated ? row[attribute] !== null && !matches(row) : matches(row))).map((r) => String(r.id)).sort();
          t.deepEqual(doc.data!.map((r) => r.id).sort(), expected, label);
        }
      }
    });
  }

  test.serial(`${db.name}: the table keeps its rows`, async (t) => {
    t.is(await model.count(), rows.length);
  });
}
