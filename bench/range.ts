// A computed range answer (any start/end/page that the build did not pre-render), warm: the
// same function the local server and the edge function call, on the built site index.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answer } from '../generator/core/answer.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { type ListQuery, planEntryRequest } from '../generator/core/lists.ts';
import { PEPYS_PERIOD } from '../generator/core/period.ts';
import { prerenderedList } from '../generator/core/prerendered.ts';
import { parseSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';
import { median } from './measure.ts';

/**
 * Deterministic requests, one at a time: ranges of 1 to 1,000 days, a random valid page of each,
 * only those the build did not pre-render (those are files, not computed answers).
 */
export function rangeQueryStream(dates: readonly string[], pageSize: number, seed = 12345): () => ListQuery {
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const day0 = Date.UTC(1660, 0, 1);
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return () => {
    for (;;) {
      const start = day0 + Math.floor(random() * 3400) * 86_400_000;
      const end = start + (1 + Math.floor(random() * 1000)) * 86_400_000;
      const q = { start: iso(start), end: iso(end) };
      const plan = planEntryRequest(dates, pageSize, q, 'julian');
      if (!plan.ok) continue;
      const page = 1 + Math.floor(random() * plan.value.totalPages);
      if (
        prerenderedList('entries', plan.value.filters, {
          period: PEPYS_PERIOD,
          calendar: 'julian',
          entryDates: dates,
        }) !== null
      )
        continue;
      return { ...q, page: String(page) };
    }
  };
}

/** The first `count` requests of rangeQueryStream. */
export function rangeQueries(dates: readonly string[], pageSize: number, count: number): ListQuery[] {
  const next = rangeQueryStream(dates, pageSize);
  return Array.from({ length: count }, next);
}

/** Microseconds per computed answer: the median of several batches, after a warm-up. */
export function rangeAnswerMicros(
  outDir: string,
  batches = 7,
  perBatch = 20_000,
): { micros: number; samples: number[] } {
  const site = loadSite(outDir);
  const queries = rangeQueries(site.entryDates, site.pageSize, 1000);
  let sink = 0;
  const runBatch = (n: number) => {
    for (let i = 0; i < n; i++) {
      const a = answer('GET', '/api/v1/entries', queries[i % queries.length] as ListQuery, site);
      if (a.kind !== 'body' || a.status !== 200)
        throw new Error(`not a computed 200: ${JSON.stringify(queries[i % queries.length])}`);
      sink += a.body.length;
    }
  };
  runBatch(perBatch); // warm-up
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t = performance.now();
    runBatch(perBatch);
    samples.push(((performance.now() - t) * 1000) / perBatch);
  }
  if (sink === 0) throw new Error('no bytes rendered');
  return { micros: median(samples), samples };
}

/** The site index of a built output directory. */
export function loadSite(outDir: string): SiteIndex {
  const loaded = parseSiteIndex(readFileSync(join(outDir, SITE_INDEX_FILE), 'utf8'));
  if (!loaded.ok) throw new Error(`${outDir}: ${loaded.error}`);
  return loaded.value;
}

/** A query as a query string. */
export function queryString(q: ListQuery): string {
  return `?start=${q.start}&end=${q.end}&page=${q.page}`;
}
