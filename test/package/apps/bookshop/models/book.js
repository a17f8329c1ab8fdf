import { DataTypes, Model } from 'sequelize';
import { sequelize } from '../db.js';

export class Book extends Model {}

Book.init(
  { title: { type: DataTypes.STRING, allowNull: false }, published_on: DataTypes.DATEONLY },
  { sequelize, tableName: 'books', timestamps: false },
);
