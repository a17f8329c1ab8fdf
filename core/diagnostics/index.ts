export { DATABASE_CHANNEL, DATABASE_OPERATIONS, type DatabaseEvent, type DatabaseOperation } from './database-events.ts';
export { observedAdapter } from './observed-adapter.ts';
export { withDatabaseLog, MAX_LOGGED_EVENTS } from './database-log.ts';
