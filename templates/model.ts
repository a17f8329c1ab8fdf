import type { TemplateContext } from '../commands/host/template.ts';

const COLUMN: Record<string, [string, string]> = {
  string: ['DataTypes.STRING', 'string'], uuid: ['DataTypes.UUID', 'string'], string_enum: ['DataTypes.STRING', 'string'],
  integer: ['DataTypes.INTEGER', 'number'], integer_enum: ['DataTypes.INTEGER', 'number'], integer_id: ['DataTypes.INTEGER', 'number'],
  float: ['DataTypes.FLOAT', 'number'], big_decimal: ['DataTypes.DECIMAL(12, 2)', 'string'], boolean: ['DataTypes.BOOLEAN', 'boolean'],
  date: ['DataTypes.DATEONLY', 'string'], datetime: ['DataTypes.DATE', 'Date'], hash: ['DataTypes.JSON', 'Record<string, unknown>'],
  array: ['DataTypes.JSON', 'unknown[]'],
};

/** `sequelize`, imported under that name whatever the application exports it as. */
export function sequelizeBinding(c: TemplateContext): string | string[] {
  if (c.databaseExport === 'default') return 'sequelize';
  return [c.databaseExport === 'sequelize' ? 'sequelize' : `${c.databaseExport} as sequelize`];
}

/**
 * app/models/<name>.ts: the Sequelize model on the application's connection.
 * TypeScript declares the columns (`declare`, so no class field shadows
 * Sequelize's accessors); JavaScript needs no declarations.
 */
export function modelTemplate(c: TemplateContext): string {
  const { code } = c;
  const column = (type: string) => COLUMN[type] ?? (type.startsWith('array_of_') ? COLUMN.array! : COLUMN.string!);
  const declarations = [`  declare id: number;`, ...c.attributes.map((a) => `  declare ${a.name}: ${column(a.type)[1]} | null;`)].join('\n');
  const columns = c.attributes.map((a) => `    ${a.name}: { type: ${column(a.type)[0]}, allowNull: true },`).join('\n');
  const body = code.language === 'typescript' ? ` {\n${declarations}\n}` : ' {}';
  return `${code.import(['DataTypes', 'Model'], 'sequelize')}
${code.import(sequelizeBinding(c), c.importPath('model', 'database'))}

${code.export}class ${c.className} extends Model${body}

${c.className}.init(
  {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
${columns}
  },
  { sequelize, tableName: '${c.tableName}', underscored: true, timestamps: false },
);
${code.exports([c.className])}`;
}

/** app/models/db.ts, written once when the application names no Sequelize instance: the connection every model shares. */
export function databaseTemplate(c: TemplateContext): string {
  return `${c.code.import(['Sequelize'], 'sequelize')}

/** DATABASE_URL in Sequelize's URL form, or an in-memory SQLite database. */
${c.code.export}const sequelize = process.env.DATABASE_URL
  ? new Sequelize(process.env.DATABASE_URL, { logging: false })
  : new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
${c.code.exports(['sequelize'])}`;
}
