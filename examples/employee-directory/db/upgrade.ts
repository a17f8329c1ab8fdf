import { DataTypes, type Sequelize } from 'sequelize';

/**
 * `sync()` creates missing tables, never missing columns: a database made
 * before employees gained `lock_version` (their version, for ETags and
 * If-Match) gets the column here, every record at version 0.
 */
export async function upgradeSchema(sequelize: Sequelize): Promise<void> {
  const queryInterface = sequelize.getQueryInterface();
  const columns = await queryInterface.describeTable('employees');
  if (!('lock_version' in columns)) {
    await queryInterface.addColumn('employees', 'lock_version', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
  }
}
