import type { TemplateContext } from '../commands/host/template.ts';

const COLUMN: Record<string, [string, string]> = {
  string: ['DataTypes.STRING', 'string'], uuid: ['DataTypes.UUID', 'string'], string_enum: ['DataTypes.STRING', 'string'],
  integer: ['DataTypes.INTEGER', 'number'], integer_enum: ['DataTypes.INTEGER', 'number'], integer_id: ['DataTypes.INTEGER', 'number'],
  float: ['DataTypes.FLOAT', 'number'], big_decimal: ['DataTypes.DECIMAL(12, 2)', 'string'], boolean: ['DataTypes.BOOLEAN', 'boolean'],
  date: ['DataTypes.DATEONLY', 'string'], datetime: ['DataTypes.DATE', 'Date'], hash: ['DataTypes.JSON', 'Record<string, unknown>'],
  array: ['DataTypes.JSON', 'unknown[]'],
};

/** app/models/<name>.ts: the Sequelize model and its table definition. */
export function modelTemplate(c: TemplateContext): string {
  const column = (type: string) => COLUMN[type] ?? (type.startsWith('array_of_') ? COLUMN.array! : COLUMN.string!);
  const declarations = c.attributes.map((a) => `  declare ${a.name}: ${column(a.type)[1]} | null;`).join('\n');
  const columns = c.attributes.map((a) => `    ${a.name}: { type: ${column(a.type)[0]}, allowNull: true },`).join('\n');
  return `import { DataTypes, Model } from 'sequelize';
import { sequelize } from './db.ts';

export class ${c.className} extends Model {
  declare id: number;
${declarations}
}

${c.className}.init(
  {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
${columns}
  },
  { sequelize, tableName: '${c.tableName}', underscored: true, timestamps: false },
);
`;
}

/** app/models/db.ts, written once: the connection every model shares. */
export function databaseTemplate(): string {
  return `import { Sequelize } from 'sequelize';

/** DATABASE_URL in Sequelize's URL form, or an in-memory SQLite database. */
export const sequelize = process.env.DATABASE_URL
  ? new Sequelize(process.env.DATABASE_URL, { logging: false })
  : new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
`;
}
