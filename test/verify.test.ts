// npm run verify: a whole mirror passes; a tampered detail, a missing file, a wrong header are
// each caught and named (path and kind). Real HTTP on 127.0.0.1: the local server over builds of
// the sample content, and a small proxy in front of it that alters what one path answers.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer } from '../generator/core/answer.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { splitTarget } from '../generator/core/handler.ts';
import { listQuery } from '../generator/core/lists.ts';
import { packText, unpack } from '../generator/core/packs.ts';
import { prng } from '../generator/core/random.ts';
import { parseSiteIndex } from '../generator/core/site-index.ts';
import { planChecks } from '../generator/verify/checks.ts';
import type { Difference } from '../generator/verify/compare.ts';
import { expectedFromBuilt, expectedFromContent, originMapper } from '../generator/verify/expected.ts';
import { formatDifferences, summaryLine } from '../generator/verify/report.ts';
import { type VerifyReport, verifyMirror } from '../generator/verify/verify.ts';
import { runCli } from './helpers/cli.ts';
import { entryFile, smallSite, writeContent } from './helpers/content.ts';
import { packPath, readTree } from './helpers/files.ts';
import { runInProcess } from './helpers/in-process.ts';
import { type LocalSite, startLocalSite } from './helpers/local-server.ts';
import { tempDir } from './helpers/temp.ts';

const SEED = 20261121;

/**
 * A small site with every kind of record, lists of several pages (two records a page) and
 * non-ASCII text: the 113 month lists still make it some 250 requests, a fraction of a second.
 */
function testContent(): string {
  const files = smallSite();
  files['site.yaml'] = 'apiOrigin: https://api.test\nsiteOrigin: https://site.test\npageSize: 2\n';
  const text = (i: number) =>
    `<p>To my Lord’s, where Mr. Sheply paid me £${i} — “for the voyage”.</p>\n<!-- footnotes -->\n<p>Note ${i}: Sheply, his steward.</p>`;
  for (const [i, date] of ['1660-03-25', '1660-06-01', '1663-07-13', '1666-09-02', '1669-05-31'].entries()) {
    files[`entries/${date.slice(0, 4)}/${date}.html`] = entryFile(date, `topics: [${1 + (i % 2)}]\n`, text(i));
  }
  for (let id = 3; id <= 6; id++)
    files[`topics/${id}.yaml`] = `id: ${id}\ntitle: Topic ${id}\nkind: default\ncategories: [people]\n`;
  return writeContent(files);
}

const SAMPLE = 40;

let content = '';
let whole: LocalSite;
let damaged: LocalSite;
let proxy: { origin: string; stop: () => Promise<void> };

/** Paths under api/ of the answer files of a built output, the details in their packs included. */
function apiFiles(dir: string): string[] {
  return [...readTree(dir).keys()].filter((file) => file.startsWith('api/'));
}

/** The request path of a difference, without `.json` and the query: what a reader looks up. */
const pathOf = (d: Difference) => splitTarget(d.check.target).path.replace(/\.json$/, '');

/** The one report a failed verification should not be: the failure says why. */
function report(result: Awaited<ReturnType<typeof verifyMirror>>): VerifyReport {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A proxy to `target` that lets `alter` change any answer (the way a misconfigured CDN would). */
async function startProxy(
  target: string,
  alter: (url: string, answer: Upstream) => Upstream,
): Promise<{ origin: string; stop: () => Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const { host: _host, ...headers } = req.headers;
    const forwarded = request(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const out = alter(req.url ?? '', {
            status: up.statusCode ?? 502,
            headers: { ...up.headers },
            body: Buffer.concat(chunks),
          });
          res.writeHead(out.status, out.headers);
          res.end(req.method === 'HEAD' || out.status === 304 ? undefined : out.body);
        });
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server on loopback that hangs up on every connection: a mirror that does not answer. */
async function hangingUp(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const server = createNetServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// The faults put into the damaged mirror and the proxy.
const rand = prng(SEED);
let tampered = { path: '', byte: 0 };
let missing = '';
let WRONG_ORIGIN_PATH = '';
let WRONG_VARY_PATH = '';
const GONE_PAGE = '/api/v1/entries?end=1660-12-31&start=1660-01-01';

beforeAll(async () => {
  content = testContent();
  [whole, damaged] = await Promise.all([startLocalSite(content), startLocalSite(content)]);
  // One byte of one entry changed (a letter into another), before the server has read it: its
  // pack (core/packs.ts) written again with it, as a sound pack (a server refuses a pack whose
  // bytes were changed in place: its digests).
  const index = parseSiteIndex(readFileSync(join(damaged.publicDir, SITE_INDEX_FILE), 'utf8'));
  if (!index.ok) throw new Error(index.error);
  const dates = index.value.entryDates;
  const entry = dates[rand(dates.length)] as string;
  const file = join(damaged.publicDir, packPath(damaged.publicDir, 'entries', entry));
  const records = unpack(readFileSync(file)) as Map<string, Uint8Array>;
  const body = Buffer.from(records.get(entry) as Uint8Array);
  const letters = [...body.keys()].filter((i) => (body[i] as number) >= 0x61 && (body[i] as number) <= 0x7a);
  const at = letters[rand(letters.length)] as number;
  body[at] = (body[at] as number) === 0x7a ? 0x61 : (body[at] as number) + 1;
  records.set(entry, body);
  writeFileSync(file, packText([...records].map(([key, b]) => [key, Buffer.from(b).toString('utf8')] as const)));
  tampered = { path: `/api/v1/entries/${entry}`, byte: at };
  // One topic lost, as an incomplete upload would lose a file: its pack written without it.
  const topics = [...index.value.topicIds].map(String).sort();
  const topic = topics[1 + rand(topics.length - 1)] as string;
  const pack = join(damaged.publicDir, packPath(damaged.publicDir, 'topics', topic));
  const rest = [...(unpack(readFileSync(pack)) ?? [])].filter(([key]) => key !== topic);
  writeFileSync(pack, packText(rest.map(([key, b]) => [key, Buffer.from(b).toString('utf8')] as const)));
  missing = `/api/v1/topics/${topic}`;

  // A category and a topic of the whole mirror get a wrong header through the proxy.
  WRONG_ORIGIN_PATH = `/api/v1/categories/${[...index.value.categorySlugs].sort()[0] as string}`;
  WRONG_VARY_PATH = `/api/v1/topics/${topics[0] as string}`;
  proxy = await startProxy(whole.origin, (url, a) => {
    // What every CDN may do: add Accept-Encoding to Vary, make the ETag weak.
    if (typeof a.headers.vary === 'string') a.headers.vary += ', Accept-Encoding';
    if (typeof a.headers.etag === 'string') a.headers.etag = `W/${a.headers.etag}`;
    const path = url.split('?')[0];
    if (path === WRONG_ORIGIN_PATH) a.headers['access-control-allow-origin'] = 'https://evil.example';
    if (path === WRONG_VARY_PATH) a.headers.vary = 'Accept, Accept-Encoding';
    if (url === GONE_PAGE) {
      const body = Buffer.from('{"detail": "Not found.", "status_code": 404}');
      return { status: 404, headers: { ...a.headers, 'content-length': String(body.length) }, body };
    }
    return a;
  });
});

afterAll(async () => {
  await Promise.all([whole?.stop(), damaged?.stop(), proxy?.stop()]);
});

describe('npm run verify (library)', () => {
  it('requests every file of the build, and more', () => {
    const loaded = expectedFromBuilt(whole.publicDir, whole.origin);
    if (!loaded.ok) throw new Error(loaded.error);
    const checks = planChecks(loaded.value.index, { sample: SAMPLE, seed: SEED, hasSchema: loaded.value.hasSchema });
    const requested = new Set<string>();
    for (const c of checks) {
      if (c.method !== 'GET') continue;
      const { path, query } = splitTarget(c.target);
      const a = answer('GET', path, listQuery(new URLSearchParams(query)), loaded.value.index);
      if (a.kind === 'file') requested.add(a.file);
    }
    expect([...requested].sort()).toEqual(apiFiles(whole.publicDir).sort());
    // And what no file holds: computed ranges, errors, other methods.
    const sections = new Set(checks.map((c) => c.section));
    for (const s of [
      'ranges',
      'filters',
      'searches',
      'errors',
      'methods',
      'revalidation',
      'negotiation',
      'spellings',
    ] as const)
      expect(sections.has(s), s).toBe(true);
    expect(checks.filter((c) => c.section === 'ranges')).toHaveLength(SAMPLE);
    // A sample of searches and the four refused ones.
    expect(checks.filter((c) => c.section === 'searches')).toHaveLength(SAMPLE + 4);
    // The same seed, the same requests.
    expect(planChecks(loaded.value.index, { sample: SAMPLE, seed: SEED, hasSchema: loaded.value.hasSchema })).toEqual(
      checks,
    );
  });

  it('finds a whole mirror whole, from the content built for its origin', async () => {
    const expected = await expectedFromContent({ contentDir: content }, whole.origin);
    if (!expected.ok) throw new Error(expected.error);
    try {
      const r = report(
        await verifyMirror({ mirror: whole.origin, expected: expected.value, seed: SEED, sample: SAMPLE }),
      );
      expect(formatDifferences(r.differences)).toEqual([]);
      expect(r.notChecked).toEqual([]);
      expect(r.checks).toBeGreaterThan(apiFiles(whole.publicDir).length + 2 * SAMPLE);
      expect(r.requests).toBeGreaterThanOrEqual(r.checks);
      expect(r.hints).toEqual([]);
      expect(summaryLine(r)).toMatch(
        /^verified http:\/\/127\.0\.0\.1:\d+: [\d,]+ requests, no differences: the mirror is whole, [\d.]+ s \(seed 20261121\)$/,
      );
    } finally {
      expected.value.dispose();
    }
  });

  it('names a tampered detail and a missing file, and nothing else', async () => {
    // The whole mirror's output says what to expect, its origin mapped to the damaged one's.
    const expected = expectedFromBuilt(whole.publicDir, damaged.origin);
    if (!expected.ok) throw new Error(expected.error);
    const r = report(
      await verifyMirror({ mirror: damaged.origin, expected: expected.value, seed: SEED, sample: SAMPLE }),
    );
    // Built for the whole mirror's origin: its downloads, which hold that origin, are not compared.
    expect(r.notChecked.join('\n')).toMatch(/^\/api\/v1\/downloads: the local build is for http:/m);
    expect(r.differences.filter((d) => d.check.section === 'downloads')).toEqual([]);
    const direct = r.differences.filter((d) => d.check.section !== 'filters');
    expect(new Set(direct.map(pathOf))).toEqual(new Set([tampered.path, missing]));
    // A filtered list that reads the missing topic's detail (core/filters.ts) says it is missing.
    for (const d of r.differences.filter((d) => d.check.section === 'filters'))
      expect(JSON.stringify(d), d.check.target).toContain(`${missing.slice(1)}.json is missing`);

    const body = r.differences.find((d) => d.kind === 'body' && d.check.target === tampered.path);
    expect(body?.detail[0]).toContain(`first difference at byte ${tampered.byte.toLocaleString('en-US')} `);
    for (const d of r.differences.filter((d) => pathOf(d) === tampered.path))
      expect(['body', 'header', 'status']).toContain(d.kind);

    const gone = r.differences.find(
      (d) => d.check.target === missing && d.check.method === 'GET' && d.check.revalidate === undefined,
    );
    expect(gone?.kind).toBe('missing');
    expect(gone?.got).toMatch(/^503: "The built site is incomplete/);
    expect(summaryLine(r)).toMatch(/: [\d,]+ requests, \d+ differences \(\d+ missing, .*\d+ body.*\)/);
  });

  it('names a wrong header and a page the CDN lost, and tolerates what CDNs add', async () => {
    const expected = expectedFromBuilt(whole.publicDir, whole.origin);
    if (!expected.ok) throw new Error(expected.error);
    const r = report(
      await verifyMirror({
        mirror: proxy.origin,
        expected: expected.value,
        seed: SEED,
        sample: SAMPLE,
        concurrency: 4,
      }),
    );
    const byPath = (path: string) => r.differences.filter((d) => d.check.target === path);
    expect(new Set(r.differences.map((d) => d.check.target))).toEqual(
      new Set([WRONG_ORIGIN_PATH, WRONG_VARY_PATH, GONE_PAGE]),
    );

    expect(byPath(WRONG_ORIGIN_PATH).map((d) => [d.kind, d.header, d.expected, d.got])).toContainEqual([
      'header',
      'Access-Control-Allow-Origin',
      '"*"',
      '"https://evil.example"',
    ]);
    expect(
      byPath(WRONG_VARY_PATH).every(
        (d) => d.kind === 'header' && d.header === 'Vary' && d.got === '"Accept, Accept-Encoding"',
      ),
    ).toBe(true);
    expect(byPath(GONE_PAGE).length).toBeGreaterThan(0);
    expect(byPath(GONE_PAGE).every((d) => d.kind === 'missing' && d.got === '404: "Not found."')).toBe(true);

    expect(r.tolerated.varyTokens.get('Accept-Encoding')).toBeGreaterThan(r.checks / 2);
    expect(r.tolerated.weakEtags).toBeGreaterThan(r.checks / 2);
    const text = formatDifferences(r.differences);
    expect(text).toContain(`header Access-Control-Allow-Origin: expected "*", got "https://evil.example" (1 answer)`);
    expect(text).toContain(`  GET ${WRONG_ORIGIN_PATH}`);
  });

  it('says in one failure that a mirror cannot be reached', async () => {
    const expected = expectedFromBuilt(whole.publicDir, whole.origin);
    if (!expected.ok) throw new Error(expected.error);
    const mirror = await hangingUp();
    try {
      const result = await verifyMirror({ mirror: mirror.origin, expected: expected.value, seed: SEED });
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error).toEqual({
          kind: 'unreachable',
          message: `cannot reach ${mirror.origin}: the connection was reset (ECONNRESET)`,
        });
    } finally {
      await mirror.stop();
    }
  });

  it('refuses a directory that is not a built site, saying so', () => {
    const result = expectedFromBuilt(content, 'http://127.0.0.1:1');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/is not a built site: it has no _data\/site-index\.json/);
  });

  it('maps the built origin in API URLs only, however a URL pattern escapes it', () => {
    const map = (from: string, to: string, text: string) =>
      new TextDecoder().decode(originMapper(from, to)(new TextEncoder().encode(text)));
    const text = String.raw`{"apiURL": "https://a.test/api/v1/topics/1", "webURL": "https://a.test/encyclopedia/1/", "url": "https://a.test", "p1": "^https:\\/\\/a\\.test\\/api\\/v1/topics/[0-9]+$", "p2": "^https://a\\.test/api/v1$"}`;
    expect(map('https://a.test', 'http://127.0.0.1:9', text)).toBe(
      String.raw`{"apiURL": "http://127.0.0.1:9/api/v1/topics/1", "webURL": "https://a.test/encyclopedia/1/", "url": "http://127.0.0.1:9", "p1": "^http:\\/\\/127\\.0\\.0\\.1:9\\/api\\/v1/topics/[0-9]+$", "p2": "^http://127\\.0\\.0\\.1:9/api/v1$"}`,
    );
    // Back again: the mapping loses nothing.
    expect(map('http://127.0.0.1:9', 'https://a.test', map('https://a.test', 'http://127.0.0.1:9', text))).toBe(text);
  });
});

describe('npm run verify (command line)', () => {
  /**
   * Runs the command as `npm run verify -- …` does, in this process (test/helpers/in-process.ts:
   * the same words and statuses; test/cli-usage.test.ts runs it as a process of its own).
   */
  const verify = (...args: string[]) => runInProcess('verify', args);

  it('exits 0 for a whole mirror, 1 for a damaged one, 2 for a usage error', async () => {
    const [ok, bad, usage] = await Promise.all([
      verify(whole.origin, '--content', content, '--seed', '7', '--sample', '5'),
      verify(`${damaged.origin}/api/v1`, '--built', whole.publicDir, '--seed', '7', '--sample', '5', '--quiet'),
      verify('--built', whole.publicDir),
    ]);

    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^verified ${whole.origin.replace(/\./g, '\\.')}: [\\d,]+ requests, no differences: the mirror is whole, [\\d.]+ s \\(seed 7\\)$`,
      ),
    );
    // Not a terminal: progress as plain lines on stderr, never rewritten in place.
    expect(ok.stderr).toMatch(/^\[[\d.]+ s\] [\d,]+\/[\d,]+ answers compared, 0 differences$/m);
    expect(ok.stderr).not.toContain('\r');

    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stderr).not.toContain('answers compared');
    expect(bad.stdout).toContain(`  GET ${missing}: expected 200`);
    expect(bad.stdout).toContain(`  GET ${tampered.path}: expected `);
    expect(bad.stdout.trim().split('\n').at(-1)).toMatch(
      /^verified http:\/\/127\.0\.0\.1:\d+: [\d,]+ requests, \d+ differences \(\d+ missing, .*body.*\), [\d.]+ s \(seed 7\)$/,
    );

    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      'error: give the mirror to verify: npm run verify -- https://mirror.example.org (--help lists the options)\n',
    );
  });

  it('leaves no temporary directory behind when the content it is to build does not exist', async () => {
    // A process of its own, its TMPDIR a directory of this test's: the one it made to build in was
    // left there empty before (verify-command.ts removes it on every refusal).
    const tmp = tempDir('pepys-verify-tmp-');
    const missing = join(tmp, 'no-such-content');
    const r = await runCli('verify', ['http://127.0.0.1:9', '--content', missing, '--quiet'], { env: { TMPDIR: tmp } });
    expect([r.code, r.stderr]).toEqual([
      2,
      `error: content directory ${missing} does not exist (give --content <dir> or --built <dir>)\n`,
    ]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
