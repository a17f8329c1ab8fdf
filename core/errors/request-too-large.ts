import { MuralError, type MuralErrorOptions } from './mural-error.ts';

const TITLES = {
  413: 'Payload Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
} as const;

/**
 * A request over one of the transport's size limits (body, URL, headers).
 * Its own status tells the client which part to shrink; nothing was read
 * past the limit.
 */
export class RequestTooLarge extends MuralError {
  readonly title: string;

  constructor(
    readonly status: keyof typeof TITLES,
    readonly code: string,
    detail: string,
    options: Omit<MuralErrorOptions, 'detail'> = {},
  ) {
    super(detail, options);
    this.title = TITLES[status];
  }
}
