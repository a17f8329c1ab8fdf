// The existing app's database: what README's "Add Mural to an existing app" starts from.
import { Sequelize } from 'sequelize';

export const sequelize = new Sequelize({ dialect: 'sqlite', storage: process.env.DATABASE_FILE ?? 'bookshop.db', logging: false });
