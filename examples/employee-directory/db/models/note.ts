import { DataTypes, Model, type Sequelize } from 'sequelize';

/** What a note can be about: the types `notable` leads to. */
export const NOTABLE_TYPES = ['employees', 'teams', 'departments'] as const;

export class Note extends Model {
  declare id: number;
  declare body: string;
  declare notable_type: string;
  declare notable_id: number;
}

export function defineNote(sequelize: Sequelize): typeof Note {
  class BoundNote extends Note {}
  BoundNote.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      body: { type: DataTypes.TEXT, allowNull: false, validate: { notEmpty: { msg: "can't be blank" }, notNull: { msg: "can't be blank" } } },
      // Mural checks a string_enum's allow: list on filters only; writes are the model's to validate
      notable_type: { type: DataTypes.STRING, allowNull: false, validate: { isIn: { args: [[...NOTABLE_TYPES]], msg: `must be one of ${NOTABLE_TYPES.join(', ')}` } } },
      notable_id: { type: DataTypes.INTEGER, allowNull: false },
    },
    {
      sequelize, modelName: 'Note', tableName: 'notes', underscored: true, timestamps: false,
      indexes: [{ fields: ['notable_type', 'notable_id'] }],
    },
  );
  return BoundNote;
}
