import { selectPrepared, type PreparingConnection } from './statements.ts';

type Row = Record<string, unknown>;

/**
 * A SELECT's rows from SQLite as one JSON text instead of one object per row.
 *
 * node-sqlite3 builds each row on the event loop's thread, a native call per
 * column of every row; here SQLite writes the rows as a JSON array on the
 * thread that runs the statement, and the event loop parses it, which V8
 * does several times faster. The values are the ones node-sqlite3 gives:
 * integers, text and NULL as they are; a REAL through `printf('%!.17g')`,
 * which keeps every digit a double has (json_object alone writes 15 and
 * would round `0.1 + 0.2`). SQLite's JSON cannot hold a BLOB: a statement
 * that meets one runs again as plain rows.
 *
 * `columns` are the names of the statement's result columns, each once (the
 * SELECTs ../select-sql.ts templates); the rows keep the statement's order,
 * which SQLite keeps through a subquery with an ORDER BY.
 */
export function selectJsonRows(connection: PreparingConnection, sql: string, columns: readonly string[]): Promise<Row[]> {
  return selectPrepared(connection, jsonRowsSql(sql, columns)).then(
    (rows) => {
      const text = rows[0]?.rows;
      return typeof text === 'string' ? (JSON.parse(text) as Row[]) : [];
    },
    (error: Error) => {
      if (!/JSON cannot hold BLOB values/.test(error.message)) throw error;
      return selectPrepared(connection, sql);
    },
  );
}

/** A SELECT and the names of its result columns, as `selectJsonRows` takes them. */
export interface JsonRowsStatement {
  readonly sql: string;
  readonly columns: readonly string[];
}

/**
 * Several SELECTs' rows in one statement: `SELECT '[' || (rows of the
 * first) || ',' || (rows of the second) … || ']'`, so that sibling reads
 * (a page's sideloads and its count) take one trip through libuv's thread
 * pool, about 25 µs of the event loop's time each, instead of one each.
 * node-sqlite3 runs a connection's statements one at a time anyway, so
 * nothing that could overlap is serialized; and the SELECTs read one
 * snapshot. Each part is a JSON array (`json_group_array` of no rows is
 * `[]`), joined as text, so SQLite parses none of it again. Fails as a
 * whole where one would fail alone, a BLOB included: the caller then runs
 * each one by itself.
 */
export async function selectJsonBatch(connection: PreparingConnection, statements: readonly JsonRowsStatement[]): Promise<Row[][]> {
  const parts = statements.map(({ sql, columns }) => `(${jsonRowsSql(sql, columns)})`);
  const [row] = await selectPrepared(connection, `SELECT '[' || ${parts.join(" || ',' || ")} || ']' AS rows`);
  const results = JSON.parse(String(row?.rows)) as unknown;
  if (!Array.isArray(results) || results.length !== statements.length) throw new Error('Mural: a batch of SELECTs answered a different number of results');
  return results as Row[][];
}

/** The wrapping's head per column list (a model's columns, or a fieldset's): the part worth building once. */
const heads = new Map<string, string>();
const MAX_HEADS = 256;
/** The same heads by the list itself: the templated SELECTs hand over one array per model and fieldset, every time. */
const headsByList = new WeakMap<readonly string[], string>();

/** `SELECT json_group_array(json_object('name', value, …)) AS rows FROM (sql)`. */
export function jsonRowsSql(sql: string, columns: readonly string[]): string {
  let head = headsByList.get(columns);
  if (head === undefined) {
    head = headOf(columns);
    headsByList.set(columns, head);
  }
  return `${head}${withoutEnd(sql)})`;
}

function headOf(columns: readonly string[]): string {
  const key = columns.join('\u0000');
  let head = heads.get(key);
  if (head === undefined) {
    const members = columns.map((name) => `${literal(name)}, ${exactValue(identifier(name))}`).join(', ');
    head = `SELECT json_group_array(json_object(${members})) AS rows FROM (`;
    if (heads.size >= MAX_HEADS) heads.delete(heads.keys().next().value!);
    heads.set(key, head);
  }
  return head;
}

/** The statement without its trailing `;` and white space, which a subquery cannot hold; the generated ones end in just `;`. */
function withoutEnd(sql: string): string {
  let end = sql.length;
  while (end > 0 && sql.charCodeAt(end - 1) <= 32) end--;
  if (end > 0 && sql.charCodeAt(end - 1) === SEMICOLON) end--;
  return end === sql.length ? sql : sql.slice(0, end);
}

const SEMICOLON = 59;

/** A column's value as JSON that parses back to the same JavaScript value node-sqlite3 reads. */
function exactValue(column: string): string {
  return `CASE typeof(${column}) WHEN 'real' THEN json(printf('%!.17g', ${column})) ELSE ${column} END`;
}

function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
