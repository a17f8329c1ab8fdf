import express from 'express';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INCLUDE_PARAMETER } from './document-writer.ts';

/** A hand-written baseline's in-process form: the body of page 1 of employees. */
export type EmployeePageText = (size: number, include: boolean) => Promise<string>;

export interface EmployeesQuery {
  size: number;
  include: boolean;
}

const PATH = '/api/v1/employees';
const MAX_PAGE_SIZE = 1000;

/**
 * The two requests the baselines answer, `?include=positions.department,teams&page[size]=N`
 * and `?page[size]=N`; anything else is undefined (a 400).
 */
export function parseEmployeesUrl(url: string): EmployeesQuery | undefined {
  const question = url.indexOf('?');
  if (question === -1 || url.slice(0, question) !== PATH) return undefined;
  let size: number | undefined;
  let include = false;
  for (const pair of url.slice(question + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = decodeURIComponent(pair.slice(0, equals));
    const value = decodeURIComponent(pair.slice(equals + 1));
    if (name === 'include' && value === INCLUDE_PARAMETER) include = true;
    else if (name === 'page[size]' && /^[1-9]\d*$/.test(value) && Number(value) <= MAX_PAGE_SIZE) size = Number(value);
    else return undefined;
  }
  return size === undefined ? undefined : { size, include };
}

/**
 * A plain `node:http` server, no framework: the document as one string,
 * sent with its Content-Type and Content-Length in one `res.end`.
 */
export function serveEmployeePages(text: EmployeePageText): Server {
  return createServer(answerEmployeePages(text));
}

/**
 * The same handler as the one route of an Express app (d): what the
 * framework Mural is served by costs a request, beside Mural's own work.
 * Express gives every request and response its own prototype
 * (`Object.setPrototypeOf`), among other work a plain server never does.
 */
export function serveEmployeePagesWithExpress(text: EmployeePageText): Server {
  const app = express();
  const answer = answerEmployeePages(text);
  app.get('/api/v1/employees', (req, res) => answer(req, res));
  return createServer(app);
}

function answerEmployeePages(text: EmployeePageText): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const query = req.method === 'GET' ? parseEmployeesUrl(req.url ?? '') : undefined;
    if (query === undefined) {
      res.writeHead(400).end();
      return;
    }
    text(query.size, query.include).then(
      (body) => {
        res.writeHead(200, { 'Content-Type': 'application/vnd.api+json', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(error));
      },
    );
  };
}

/** Listens on a free loopback port; the server and its base URL. */
export async function listen(server: Server): Promise<{ server: Server; baseUrl: string; close: () => Promise<void> }> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return { server, baseUrl: `http://127.0.0.1:${port}`, close };
}
