// The 503 of an incomplete built site (issue 33, deliverable 4): one error, thrown where a file
// fails and answered by handle(); its words are written in one module, each case's as before.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IncompleteSite } from '../generator/core/incomplete-site.ts';

const CORE = join(import.meta.dirname, '..', 'generator', 'core');

describe('IncompleteSite', () => {
  it("words each case's 503 as the handler, the filters and the search worded it", () => {
    expect(new IncompleteSite('api/v1/entries/1660-01-01.json', null).error).toEqual({
      status: 503,
      detail:
        'The built site is incomplete: it lacks api/v1/entries/1660-01-01.json, which its index lists. Build and publish it again.',
    });
    expect(new IncompleteSite('_data/topic-kinds.json', 'damaged').error.detail).toBe(
      'The built site is incomplete: _data/topic-kinds.json is damaged. Build and publish it again.',
    );
    expect(new IncompleteSite('_data/search/entries/0.txt', 'missing or damaged', 'search index').error.detail).toBe(
      "The built site's search index is incomplete: _data/search/entries/0.txt is missing or damaged. Build and publish it again.",
    );
  });

  it('is worded in one module of the core, and no other writes an incomplete site’s 503', () => {
    const files = readdirSync(CORE, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const wording = files.filter((f) => /is incomplete: /.test(readFileSync(join(CORE, f), 'utf8')));
    expect(wording).toEqual(['incomplete-site.ts']);
  });
});
