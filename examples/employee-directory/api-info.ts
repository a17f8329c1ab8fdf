import type { OpenApiInfo } from 'mural';

/** The OpenAPI document's `info`, shared so the served document (app.ts) and the committed one (mural.config.ts) are the same. */
export const API_INFO: OpenApiInfo = {
  title: 'Employee directory',
  version: '1.0.0',
  description: 'Mural\'s example application: employees, their positions, departments, teams, notes and tasks.',
};
