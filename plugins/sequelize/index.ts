export { SequelizeAdapter } from './sequelize-adapter.ts';
export { SequelizeScope } from './sequelize-scope.ts';
export { configureSqlite, SQLITE_DEFAULTS, type SqliteSettings } from './sqlite/settings.ts';
export { likeCondition, textCondition, type TextOperator } from './filter-condition.ts';
export { configureReplicas, REPLICA_DEFAULTS, type ReplicaSettings } from './read-replicas.ts';
