import { DataTypes, type Sequelize } from 'sequelize';

/**
 * `sync()` creates missing tables, never missing columns: a database made
 * before employees gained `lock_version` (their version, for ETags and
 * If-Match) gets the column here, every record at version 0.
 *
 * Nor does it add foreign keys to existing tables, and this leaves them
 * out too: a database made before the tables had them may hold rows they
 * would refuse (a position whose employee was deleted), and SQLite can
 * only add one by rebuilding the table. Such a database keeps working as it
 * did, without the constraints; a new one has them (docs/decisions.md).
 */
export async function upgradeSchema(sequelize: Sequelize): Promise<void> {
  const queryInterface = sequelize.getQueryInterface();
  const columns = await queryInterface.describeTable('employees');
  if (!('lock_version' in columns)) {
    await queryInterface.addColumn('employees', 'lock_version', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
  }
}
