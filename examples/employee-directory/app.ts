import express, { type Express } from 'express';
import type { Sequelize } from 'sequelize';
import { muralRouter, type MuralRouterOptions } from 'mural/express';
import { API_INFO } from './api-info.ts';
import { requestContext } from './auth/request-context.ts';
import { defineModels, type Models } from './db/models/index.ts';
import { defineResources, type DirectoryResources } from './resources/index.ts';

/**
 * The directory's Express application over an open database; `options`
 * overrides the router's own (tests turn `serverTiming` on).
 */
export function createApp(sequelize: Sequelize, options: Pick<MuralRouterOptions, 'serverTiming'> = {}): { app: Express; models: Models; resources: DirectoryResources } {
  const models = defineModels(sequelize);
  const resources = defineResources(models);
  const app = express();
  app.use(
    muralRouter({
      resources: Object.values(resources),
      // who is asking: a verified bearer token (npm run token prints one)
      context: (req) => requestContext(req),
      // GET /api/v1/openapi.json: the document `mural openapi` writes to openapi.json
      openapi: { info: API_INFO },
      // POST /api/v1/operations: several writes in one transaction (JSON:API Atomic Operations)
      operations: true,
      // GET /api/v1/explorer: the API explorer, by default on unless NODE_ENV is production
      // Server-Timing headers: by default only with NODE_ENV=development
      ...options,
    }),
  );
  return { app, models, resources };
}
