// The API in a real browser: Debian's Chromium driven by playwright-core (tools/browser).
// - A page on another loopback origin reads an entry and its ETag through CORS, then revalidates
//   it with If-None-Match (which makes the browser send a preflight first).
// - A person's path through the browsable pages, clicked: root → entries → an entry → back →
//   next page → a range typed into the form → a mistyped range (the 400 page); a screenshot of
//   the range page is kept in .cache/test-artifacts/browser/.
// - axe-core finds no serious or critical accessibility violation on any of those pages, and the
//   keyboard reaches the skip link first, with a visible focus.
//
// Needs /usr/bin/chromium (apt-get install -y chromium) and `npm run browser:install`; without
// them these tests are skipped with a message, except under CI=true, where they fail instead.

import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../generator/build.ts';
import { createApiServer } from '../../generator/server/server.ts';
import {
  type AxeViolation,
  axeViolations,
  type BrowserContext,
  type BrowserRequest,
  browserToolsMissing,
  INSTALL,
  launchChromium,
  type Page,
} from '../../tools/browser/browser.ts';
import { tempDir } from '../helpers/temp.ts';

const REPO = join(import.meta.dirname, '..', '..');
const CONTENT = join(REPO, 'content');
/** Kept after the run (gitignored): what the browser showed. */
const ARTIFACTS = join(REPO, '.cache', 'test-artifacts', 'browser');

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

interface Logged {
  method: string;
  url: string;
  origin: string | null;
  requestHeaders: string | null;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The page of the other origin: it reads an entry and its ETag, then revalidates it. */
function clientPage(api: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another site</title></head>
<body><main><h1>Another site</h1></main><script>
window.result = (async () => {
  const url = ${JSON.stringify(`${api}/api/v1/entries/1660-01-01`)};
  const first = await fetch(url);
  const entry = await first.json();
  const etag = first.headers.get('ETag');
  const again = await fetch(url, { headers: { 'If-None-Match': etag } });
  return {
    status: first.status, type: first.headers.get('Content-Type'), title: entry.title, etag,
    allow: first.headers.get('Allow'),
    revalidated: again.status, etagAgain: again.headers.get('ETag'), bodyAgain: await again.text(),
  };
})().catch((e) => ({ error: String(e) }));
</script></body></html>`;
}

const missing = browserToolsMissing();

if (missing !== null) {
  if (process.env.CI === 'true') {
    it('runs the browser tests (CI)', () => {
      throw new Error(`CI=true but the browser tests cannot run: missing ${missing}. Install: ${INSTALL}`);
    });
  } else {
    process.stderr.write(`\nSkipping the browser tests: missing ${missing}. Install: ${INSTALL}\n`);
    describe.skip(`the API in Chromium (missing ${missing})`, () => {
      it('reads the API through CORS, browses it, checks accessibility', () => {});
    });
  }
} else {
  describe('the API in Chromium', () => {
    const log: Logged[] = [];
    let api = '';
    let elsewhere = '';
    let apiServer: Server;
    let clientServer: Server;
    let browser: BrowserContext;
    let page: Page;
    const requests: BrowserRequest[] = [];
    const started = performance.now();

    beforeAll(async () => {
      const dir = tempDir('pepys-browser-');
      const publicDir = join(dir, 'public');
      apiServer = createApiServer({ publicDir });
      apiServer.prependListener('request', (req: { method?: string; url?: string; headers: IncomingHttpHeaders }) => {
        const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : null);
        log.push({
          method: req.method ?? '',
          url: req.url ?? '',
          origin: header('origin'),
          requestHeaders: header('access-control-request-headers'),
        });
      });
      api = await listen(apiServer);
      await build({ contentDir: CONTENT, outDir: publicDir, quiet: true, overrides: { apiOrigin: api }, env: {} });
      clientServer = createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(clientPage(api));
      });
      elsewhere = await listen(clientServer);
      browser = await launchChromium(join(dir, 'profile'));
      page = await browser.newPage();
      page.on('request', (r) => requests.push(r));
      mkdirSync(ARTIFACTS, { recursive: true });
    });

    afterAll(async () => {
      await browser?.close();
      if (apiServer !== undefined) await close(apiServer);
      if (clientServer !== undefined) await close(clientServer);
      process.stderr.write(
        `browser tests: ${((performance.now() - started) / 1000).toFixed(1)} s, Chromium and both servers included\n`,
      );
    });

    /** Serious and critical violations only: the bar of these tests. */
    async function serious(): Promise<Array<Pick<AxeViolation, 'id' | 'help'> & { where: string }>> {
      const found = await axeViolations(page);
      return found
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, help: v.help, where: JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target)) }));
    }

    const text = async (selector: string) => (await page.locator(selector).first().textContent()) ?? '';

    it('lets a page on another origin read an entry and its ETag, and revalidate it after a preflight', async () => {
      const response = await page.goto(`${elsewhere}/`);
      expect(response?.status()).toBe(200);
      const result = await page.evaluate<Record<string, unknown>>('window.result');
      expect(result.error).toBeUndefined();
      expect(result.status).toBe(200);
      expect(result.type).toBe('application/json');
      expect(result.title).toBe('Sunday 1 January 1659/60');
      // Exposed by Access-Control-Expose-Headers; Allow is not, and stays hidden from the page.
      expect(result.etag).toMatch(/^"[0-9a-f]+(-br|-gzip)?"$/);
      expect(result.allow).toBeNull();
      expect(result.revalidated).toBe(304);
      expect(result.etagAgain).toBe(result.etag);
      expect(result.bodyAgain).toBe('');
      // If-None-Match is no CORS-safelisted header: the browser asked first.
      const preflight = log.find((l) => l.method === 'OPTIONS' && l.url === '/api/v1/entries/1660-01-01');
      expect(preflight?.origin).toBe(elsewhere);
      expect(preflight?.requestHeaders?.toLowerCase()).toContain('if-none-match');
      const gets = log.filter((l) => l.method === 'GET' && l.url === '/api/v1/entries/1660-01-01');
      expect(gets.map((l) => l.origin)).toEqual([elsewhere, elsewhere]);
    });

    it('reaches the skip link first from the keyboard, with a visible focus', async () => {
      await page.goto(`${api}/api/v1`);
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<{ text: string; outline: string; left: number }>(
        "(() => { const e = document.activeElement; const s = getComputedStyle(e); return { text: e.textContent, outline: s.outlineStyle + ' ' + s.outlineWidth, left: e.getBoundingClientRect().left }; })()",
      );
      expect(focused.text).toBe('Skip to the answer');
      expect(focused.outline).toBe('solid 3px');
      expect(focused.left).toBeGreaterThanOrEqual(0);
      await page.keyboard.press('Enter');
      expect(await page.evaluate<string>('document.activeElement.id')).toBe('main');
    });

    it('is clicked through as a person would: root, entries, an entry, back, the next page, a range, a mistyped range', async () => {
      const root = await page.goto(`${api}/api/v1`);
      expect(root?.status()).toBe(200);
      expect(root?.headers()['content-type']).toBe('text/html; charset=utf-8');
      expect(await text('h1')).toBe('Pepys diary API');
      expect(await serious(), 'root').toEqual([]);

      // The link is the URL of the JSON, shown as it is; it leads to the same path on this origin.
      await page.locator(`a[href="/api/v1/entries"]:text-is("${api}/api/v1/entries")`).click();
      await page.waitForURL(`${api}/api/v1/entries`);
      expect(await text('h1')).toBe('Entries');
      expect(await text('.position')).toMatch(/^Page 1 of \d+ · entries 1–50 of \d+/);
      expect(await serious(), 'entries').toEqual([]);

      await page.locator('a[href="/api/v1/entries/1660-01-01"]').click();
      await page.waitForURL(`${api}/api/v1/entries/1660-01-01`);
      expect(await text('h1')).toBe('Entry: Sunday 1 January 1659/60');
      expect(await serious(), 'an entry').toEqual([]);

      await page.goBack();
      expect(page.url()).toBe(`${api}/api/v1/entries`);
      expect(await text('h1')).toBe('Entries');

      await page.getByRole('link', { name: 'Next page →' }).click();
      await page.waitForURL(`${api}/api/v1/entries?page=2`);
      expect(await text('.position')).toMatch(/^Page 2 of \d+ · entries 51–100 of/);

      // The form, as typed by a person, sent by the browser without any script.
      await page.getByRole('textbox', { name: 'From (start)' }).fill('1660-01-01');
      await page.getByRole('textbox', { name: 'To (end)' }).fill('1660-03-31');
      await page.getByRole('button', { name: 'Show entries' }).click();
      await page.waitForURL(
        (url) => url.searchParams.get('start') === '1660-01-01' && url.searchParams.get('end') === '1660-03-31',
      );
      expect(await text('.position')).toMatch(
        /^Page 1 of 1 · entries 1–\d+ of \d+ · dates from 1660-01-01 to 1660-03-31$/,
      );
      const shown = JSON.parse(await text('pre code')) as { totalResults: number };
      const json = (await (await fetch(`${api}/api/v1/entries?start=1660-01-01&end=1660-03-31`)).json()) as {
        totalResults: number;
      };
      expect(shown).toEqual(json);
      expect(await serious(), 'a range').toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'entries-range.png') });

      await page.getByRole('textbox', { name: 'From (start)' }).fill('1661-13-01');
      const [bad] = await Promise.all([
        page.waitForResponse((r) => r.url().startsWith(`${api}/api/v1/entries?`)),
        page.getByRole('button', { name: 'Show entries' }).click(),
      ]);
      expect(bad.status()).toBe(400);
      expect(await text('h1')).toBe('400 Bad Request');
      expect(await text('.detail')).toContain('"1661-13-01"');
      // The form keeps what was typed, to correct it.
      expect(await page.evaluate<string>("document.getElementById('start').value")).toBe('1661-13-01');
      expect(await serious(), 'the 400 page').toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'bad-range.png') });
    });

    it('shows the OpenAPI document, and a 404 as an accessible page too', async () => {
      const schema = await page.goto(`${api}/api/v1/schema`);
      expect(schema?.status()).toBe(200);
      expect(await text('h1')).toBe('OpenAPI document');
      expect(JSON.parse(await text('pre code'))).toMatchObject({ openapi: '3.1.0', servers: [{ url: api }] });
      // axe is not run on this page: the same template as the others, but thousands of lines of
      // JSON, which take axe's contrast rule many seconds.
      const missingEntry = await page.goto(`${api}/api/v1/entries/1669-06-01`);
      expect(missingEntry?.status()).toBe(404);
      expect(await text('.detail')).toBe('No Entry matches the given query.');
      expect(await serious(), 'a 404').toEqual([]);
    });

    it('loaded nothing but the pages themselves, and only from their own origins', () => {
      const others = requests.filter((r) => !r.url().startsWith(`${api}/`) && !r.url().startsWith(`${elsewhere}/`));
      expect(others.map((r) => r.url())).toEqual([]);
      const assets = requests.filter(
        (r) =>
          r.url().startsWith(`${api}/`) &&
          !['document', 'fetch'].includes(r.resourceType()) &&
          !r.url().endsWith('/favicon.ico'),
      );
      expect(assets.map((r) => `${r.resourceType()} ${r.url()}`)).toEqual([]);
    });
  });
}
