import express from 'express';
import { muralRouter } from 'mural/express';
import { AuthorResource } from './resources/author-resource.js';
import { BookResource } from './resources/book-resource.js';

export const app = express();
app.get('/', (_req, res) => void res.send('an existing Express app'));
app.use(muralRouter({ resources: [AuthorResource, BookResource] }));
