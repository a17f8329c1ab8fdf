import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { BadRequestError, jsonapiMember, JSONAPI_MEDIA_TYPE, MuralError, RequestTimeout, RequestTooLarge } from '../../core/index.ts';

/**
 * Requests Node refuses before Express sees them (a URL or headers over
 * `maxHeaderSize`, 16 KiB by default; bytes that are not HTTP; a request
 * that did not arrive within `limitSlowClients`' limits) get Node's bare
 * status line, or a reset. This answers them as JSON:API instead:
 *
 *   const server = app.listen(3000);
 *   answerClientErrors(server);
 */
export function answerClientErrors(server: Server): Server {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const message = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    // a reset peer cannot be answered; a response already under way cannot be replaced
    if (error.code === 'ECONNRESET' || !socket.writable || message?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = refusalFor(error, server);
    const body = JSON.stringify({ ...refusal.toJsonapi(), jsonapi: jsonapiMember({ ext: [] }) });
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
        `Content-Type: ${JSONAPI_MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

function refusalFor(error: NodeJS.ErrnoException, server: Server): MuralError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // the client stopped sending before its request was complete (limitSlowClients)
    return new RequestTimeout(`The request did not arrive in time: ${server.headersTimeout} ms are allowed for its URL and headers, ${server.requestTimeout} ms for all of it`);
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const limit = (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;
    return new RequestTooLarge(431, 'headers_too_large', `The URL and headers of the request are over ${limit} bytes`);
  }
  return new BadRequestError('malformed_request', 'The request is not valid HTTP/1.1');
}
