import test from 'ava';
import { openFixture } from '../../bench/fixtures.ts';
import { baselineDocumentTests } from '../support/baseline-documents.ts';

/**
 * PostgreSQL's read baselines of `npm run bench`, (a) Sequelize and (b) pg
 * by hand, against Mural's HTTP body byte for byte (SQLite's:
 * baseline-documents.test.ts). Mural renders PostgreSQL's timestamps from
 * their text; (b) must write the same milliseconds.
 */
const url = process.env.MURAL_TEST_POSTGRES;
if (url) {
  // MURAL_TEST_DB_PREFIX keeps checkouts that test side by side on one server apart
  baselineDocumentTests('PostgreSQL', () => openFixture(60, url, `mural_${process.env.MURAL_TEST_DB_PREFIX ?? ''}baseline_documents`.toLowerCase()));
} else {
  test.skip('PostgreSQL: needs MURAL_TEST_POSTGRES', () => {});
}
