export { SequelizeAdapter } from './sequelize-adapter.ts';
export { SequelizeScope } from './sequelize-scope.ts';
