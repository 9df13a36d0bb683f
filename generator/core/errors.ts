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

export const NOT_FOUND: ApiError = { status: 404, detail: 'Not found.' };
export const INVALID_PAGE: ApiError = { status: 404, detail: 'Invalid page.' };

export function noRecord(model: 'Entry' | 'Category' | 'Topic'): ApiError {
  return { status: 404, detail: `No ${model} matches the given query.` };
}

export function methodNotAllowed(method: string): ApiError {
  return { status: 405, detail: `Method "${method}" not allowed.` };
}

export function invalidDate(parameter: 'start' | 'end', given: string): ApiError {
  return {
    status: 400,
    detail:
      `Invalid "${parameter}" parameter: ${JSON.stringify(given)} is not a date. ` +
      'Expected a real calendar date written YYYY-MM-DD, such as 1660-01-01.',
  };
}
