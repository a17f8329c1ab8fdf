import { Op, Sequelize, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import type { FilterClause } from '../../core/index.ts';

type Expression = ReturnType<typeof Sequelize.col> | ReturnType<typeof Sequelize.fn>;

const COMPARISONS = { gt: Op.gt, gte: Op.gte, lt: Op.lt, lte: Op.lte } as const;

/** The column a Resource attribute maps to, qualified by the model's alias. */
export function columnOf(model: ModelStatic<Model>, attribute: string): ReturnType<typeof Sequelize.col> {
  const field = model.getAttributes()[attribute]?.field ?? attribute;
  return Sequelize.col(`${model.name}.${field}`);
}

/**
 * One built-in operator as a WHERE condition. Case-insensitive comparisons use
 * `lower()` on both sides on every dialect (SQLite has no ILIKE, MySQL's
 * collations differ), and LIKE patterns escape `%`, `_` and the escape
 * character so user values match literally.
 */
export function filterCondition(model: ModelStatic<Model>, clause: FilterClause): WhereOptions {
  const column = columnOf(model, clause.column);
  const dialect = model.sequelize!.getDialect();
  const values = clause.values;
  const nonNull = values.filter((v) => v !== null);
  const parts: WhereOptions[] = [];
  if (nonNull.length < values.length) parts.push(Sequelize.where(column, { [Op.is]: null }));
  if (nonNull.length > 0) parts.push(...positive(clause, column, nonNull, dialect, model));
  const condition: WhereOptions = parts.length === 1 ? parts[0]! : { [Op.or]: parts };
  // Sequelize drops a NOT around a bare `where()`; wrapping it in AND keeps it
  return clause.negated ? { [Op.not]: { [Op.and]: [condition] } } : condition;
}

function positive(
  clause: FilterClause,
  column: Expression,
  values: unknown[],
  dialect: string,
  model: ModelStatic<Model>,
): WhereOptions[] {
  const lower = (e: Expression) => Sequelize.fn('lower', e);
  switch (clause.operator) {
    case 'eq':
    case 'eql':
      if (clause.operator === 'eq' && clause.caseInsensitive) {
        return [Sequelize.where(lower(column), { [Op.in]: values.map((v) => String(v).toLowerCase()) })];
      }
      return [Sequelize.where(exact(column, clause.typeName, dialect), { [Op.in]: values })];
    case 'prefix':
    case 'suffix':
    case 'match':
      return values.map((v) => like(model, lower(column), clause.operator, String(v).toLowerCase()));
    default: {
      const op = COMPARISONS[clause.operator];
      return values.map((v) => Sequelize.where(column, { [op]: v }));
    }
  }
}

/** MySQL compares strings by a case-insensitive collation; BINARY makes the comparison exact. */
const TEXT_TYPES = new Set(['string', 'uuid', 'string_enum', 'array_of_strings', 'array_of_uuids', 'array_of_string_enums']);

function exact(column: Expression, typeName: string, dialect: string): Expression {
  return TEXT_TYPES.has(typeName) && (dialect === 'mysql' || dialect === 'mariadb') ? Sequelize.fn('BINARY', column) : column;
}

const ESCAPE = '!';

/**
 * A built-in string operator `textCondition` builds: `eq`, `prefix`, `suffix` and `match` ignore
 * case, `eql` does not.
 */
export type TextOperator = 'eq' | 'eql' | 'prefix' | 'suffix' | 'match';

/**
 * For custom filters: the condition a built-in string operator puts on an
 * attribute, any of `values` matching. `eq`, `prefix`, `suffix` and `match`
 * ignore case; LIKE patterns match `%`, `_` and `!` literally.
 *
 *   eq: (scope: SequelizeScope, names: string[]) =>
 *     scope.where({ [Op.or]: [textCondition(scope.model, 'first_name', 'eq', names), textCondition(scope.model, 'last_name', 'eq', names)] })
 */
export function textCondition(model: ModelStatic<Model>, attribute: string, operator: TextOperator, values: string | readonly string[]): WhereOptions {
  const list = typeof values === 'string' ? [values] : values;
  if (list.length === 0) return { [Op.and]: [Sequelize.literal('1 = 0')] };
  return filterCondition(model, { column: attribute, operator, negated: false, values: list, caseInsensitive: operator !== 'eql', typeName: 'string' });
}

/**
 * One value as a LIKE condition on an attribute, ignoring case, exactly as
 * the built-in `prefix`, `suffix` and `match` operators build it: the value's
 * `%`, `_` and escape character are escaped, so `filter[name][prefix]=%`
 * matches names starting with a literal `%`, not every row. Use it instead of
 * `Op.startsWith`, `Op.like` or `Op.substring`, which pass wildcards through.
 */
export function likeCondition(model: ModelStatic<Model>, attribute: string, operator: 'prefix' | 'suffix' | 'match', value: string): WhereOptions {
  return like(model, Sequelize.fn('lower', columnOf(model, attribute)), operator, value.toLowerCase());
}

/** SQLite refuses LIKE patterns over SQLITE_MAX_LIKE_PATTERN_LENGTH (50,000 bytes by default). */
const SQLITE_LIKE_BYTES = 50_000;

function like(model: ModelStatic<Model>, expression: Expression, operator: string, value: string): WhereOptions {
  if (model.sequelize!.getDialect() === 'sqlite' && Buffer.byteLength(value) + 2 > SQLITE_LIKE_BYTES) return longMatch(expression, operator, value);
  const escaped = value.replace(/[!%_]/g, (c) => ESCAPE + c);
  const pattern = operator === 'prefix' ? `${escaped}%` : operator === 'suffix' ? `%${escaped}` : `%${escaped}%`;
  const literal = Sequelize.literal(`${model.sequelize!.escape(pattern)} ESCAPE '${ESCAPE}'`);
  return Sequelize.where(expression, { [Op.like]: literal });
}

/** The same match without a pattern, for values too long for SQLite's LIKE: compared as plain text, so nothing needs escaping. */
function longMatch(expression: Expression, operator: string, value: string): WhereOptions {
  if (operator === 'match') return Sequelize.where(Sequelize.fn('instr', expression, value), { [Op.gt]: 0 });
  const characters = [...value].length;
  const start = operator === 'prefix' ? 1 : -characters;
  return Sequelize.where(Sequelize.fn('substr', expression, start, characters), { [Op.eq]: value });
}
