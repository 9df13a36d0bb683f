// The contract's error bodies and messages.

import { pretty } from './json.ts';
import type { ErrorBody } from './types.ts';

export interface ApiError {
  status: number;
  detail: string;
}

export function errorBody(error: ApiError): string {
  const body: ErrorBody = { detail: error.detail, status_code: error.status };
  return pretty(body);
}

/** The reason phrases of the statuses the API answers with (an HTTP status line, the HTML view). */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  200: 'OK',
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** What a thrown value says: an Error's message, anything else as a string. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const NOT_FOUND: ApiError = { status: 404, detail: 'Not found.' };
export const INVALID_PAGE: ApiError = { status: 404, detail: 'Invalid page.' };

export function noRecord(model: 'Entry' | 'Category' | 'Topic'): ApiError {
  return { status: 404, detail: `No ${model} matches the given query.` };
}

export function methodNotAllowed(method: string): ApiError {
  return { status: 405, detail: `Method "${method}" not allowed.` };
}

/** `example`: a date of the diary (its first day); the Pepys diary's unless given. */
export function invalidDate(parameter: 'start' | 'end', given: string, example = '1660-01-01'): ApiError {
  return {
    status: 400,
    detail:
      `Invalid "${parameter}" parameter: ${JSON.stringify(given)} is not a date. ` +
      `Expected a real calendar date written YYYY-MM-DD, such as ${example}.`,
  };
}
