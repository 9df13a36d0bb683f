// The API's dates are the diary's own calendar's dates written YYYY-MM-DD (issue 35 §3): in each
// calendar, a date that exists there is an entry's date, an address, a `start`/`end` and a `day`,
// and one that does not (Gregorian 1700-02-29, British 1752-09-05) is refused as 1661-02-30 is. The
// titles' weekdays, the month pages' last days and the links between pages follow the calendar.
// In each calendar, a diary of each of 1582, 1700, 1752 and 1900 (a diary of the 319 years
// between would pre-render 3,828 months, seconds a build). The regular expressions
// that check many dates at once (core/dates.ts) are compared with core/calendar.ts's arithmetic.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../generator/build.ts';
import { CALENDARS, type CalendarName, isValidDate } from '../generator/core/calendar.ts';
import { areCalendarDates, isCalendarDate } from '../generator/core/dates.ts';
import { SITE_INDEX_FILE } from '../generator/core/files.ts';
import { handle } from '../generator/core/handler.ts';
import { prerenderedList } from '../generator/core/prerendered.ts';
import { parseSiteIndex, type SiteIndex } from '../generator/core/site-index.ts';
import { entryFile, problemsOf, writeContent } from './helpers/content.ts';
import { tempDir } from './helpers/temp.ts';

// Each date with its weekday in each calendar ('-': the date does not exist there). Checked
// independently: Julian 1700-02-29 is Gregorian 1700-03-11, a Thursday; Julian 1900-02-29 is
// Gregorian 1900-03-13, a Tuesday; Julian 1752-09-05 is Gregorian 1752-09-16, a Saturday (Date's
// getUTCDay); Julian 1582-10-04 was the Thursday before Gregorian Friday 1582-10-15.
const WEEKDAYS: Record<string, Record<CalendarName, string>> = {
  '1582-10-04': { julian: 'Thursday', gregorian: 'Monday', british: 'Thursday' },
  '1582-10-15': { julian: 'Monday', gregorian: 'Friday', british: 'Monday' },
  '1700-02-28': { julian: 'Wednesday', gregorian: 'Sunday', british: 'Wednesday' },
  '1700-02-29': { julian: 'Thursday', gregorian: '-', british: 'Thursday' },
  '1700-03-01': { julian: 'Friday', gregorian: 'Monday', british: 'Friday' },
  '1752-09-02': { julian: 'Wednesday', gregorian: 'Saturday', british: 'Wednesday' },
  '1752-09-05': { julian: 'Saturday', gregorian: 'Tuesday', british: '-' },
  '1752-09-14': { julian: 'Monday', gregorian: 'Thursday', british: 'Thursday' },
  '1900-02-28': { julian: 'Monday', gregorian: 'Wednesday', british: 'Wednesday' },
  '1900-02-29': { julian: 'Tuesday', gregorian: '-', british: '-' },
  '1900-03-01': { julian: 'Wednesday', gregorian: 'Thursday', british: 'Thursday' },
};
const MONTHS = ['', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October'];
const DATES = Object.keys(WEEKDAYS);
const exists = (calendar: CalendarName, date: string) => WEEKDAYS[date]?.[calendar] !== '-';

const YEARS = ['1582', '1700', '1752', '1900'];

interface Built {
  out: string;
  site: SiteIndex;
}

/** A diary of `calendar` and `year` holding every date of DATES there, one entry a page. */
async function buildDiary(calendar: CalendarName, year: string): Promise<Built> {
  const files: Record<string, string> = {
    'site.yaml': [
      'apiOrigin: https://api.test',
      'siteOrigin: https://site.test',
      `calendar: ${calendar}`,
      `period: { start: ${year}-01-01, end: ${year}-12-31 }`,
      'titleConvention: single',
      'pageSize: 1',
      'license: CC0-1.0',
      '',
    ].join('\n'),
  };
  for (const date of DATES.filter((d) => d.startsWith(year) && exists(calendar, d)))
    files[`entries/${date.slice(0, 4)}/${date}.html`] = entryFile(date);
  const out = join(tempDir('pepys-calendar-'), 'public');
  await build({ contentDir: writeContent(files), outDir: out, quiet: true, env: {} });
  const site = parseSiteIndex(readFileSync(join(out, SITE_INDEX_FILE), 'utf8'));
  if (!site.ok) throw new Error(site.error);
  return { out, site: site.value };
}

async function ask(
  diaries: Map<string, Built>,
  path: string,
  query = '',
  // The diary of the year asked about (of 1700 for a question of no year).
  year = /\b(1582|1700|1752|1900)-/.exec(`${path}?${query}`)?.[1] ?? '1700',
): Promise<{ status: number; body: string }> {
  const built = diaries.get(year) as Built;
  const read = (file: string) => {
    try {
      return readFileSync(join(built.out, file));
    } catch {
      return null;
    }
  };
  const r = await handle({ method: 'GET', path, query, header: () => null }, built.site, read);
  return { status: r.status, body: new TextDecoder().decode(r.body) };
}

const results = (body: string) => (JSON.parse(body) as { results: Array<{ date: string }> }).results.map((r) => r.date);

describe.each(CALENDARS)('a %s diary', (calendar) => {
  const built = new Map<string, Built>();
  beforeAll(async () => {
    for (const year of YEARS) built.set(year, await buildDiary(calendar, year));
  }, 60_000);

  it('holds every date of its calendar, titled with the weekday its calendar gives', async () => {
    for (const date of DATES) {
      const r = await ask(built, `/api/v1/entries/${date}`);
      if (!exists(calendar, date)) continue;
      expect(r.status, date).toBe(200);
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const title = `${WEEKDAYS[date]?.[calendar]} ${d} ${MONTHS[m]} ${y}`;
      expect((JSON.parse(r.body) as { title: string }).title, date).toBe(title);
    }
  });

  it('refuses a date its calendar lacks as an address, a start and an end, as it refuses 1661-02-30', async () => {
    const malformed = await ask(built, '/api/v1/entries/1661-02-30');
    expect(malformed.status).toBe(404);
    for (const date of DATES.filter((d) => !exists(calendar, d))) {
      expect(await ask(built, `/api/v1/entries/${date}`), date).toEqual(malformed);
      for (const bound of ['start', 'end']) {
        const refused = await ask(built, '/api/v1/entries', `${bound}=${date}`);
        const like = await ask(built, '/api/v1/entries', `${bound}=1661-02-30`, date.slice(0, 4));
        expect(refused.status, `${bound}=${date}`).toBe(400);
        expect(refused.body, `${bound}=${date}`).toBe(like.body.replace('1661-02-30', date));
      }
    }
  });

  it('takes every date of its calendar as a range bound, and 02-29 as a day', async () => {
    for (const date of DATES.filter((d) => exists(calendar, d))) {
      const r = await ask(built, '/api/v1/entries', `start=${date}&end=${date}`);
      expect([r.status, results(r.body)], date).toEqual([200, [date]]);
    }
    for (const year of ['1700', '1900']) {
      const leapDays = await ask(built, '/api/v1/entries', `day=02-29&start=${year}-01-01`);
      expect([leapDays.status, results(leapDays.body)], year).toEqual([
        200,
        exists(calendar, `${year}-02-29`) ? [`${year}-02-29`] : [],
      ]);
    }
  });

  it("pre-renders each month to its calendar's last day, and links its pages with that range", async () => {
    const february = calendar === 'gregorian' ? '1700-02-28' : '1700-02-29';
    const filters = { start: '1700-02-01', end: february };
    const diary = built.get('1700') as Built;
    expect(prerenderedList('entries', filters, diary.site)?.dir).toBe('api/v1/entries/months/1700-02');
    const r = await ask(built, '/api/v1/entries', `start=1700-02-01&end=${february}`);
    const file = readFileSync(join(diary.out, 'api/v1/entries/months/1700-02/pages/1.json'), 'utf8');
    expect(r.body).toBe(file);
    const page = JSON.parse(file) as { totalResults: number; nextPageURL: string | null };
    expect(page.totalResults).toBe(calendar === 'gregorian' ? 1 : 2);
    expect(page.nextPageURL).toBe(
      calendar === 'gregorian' ? null : 'https://api.test/api/v1/entries?end=1700-02-29&page=2&start=1700-02-01',
    );
    // The month of the British switch ends on the 30th, like every September.
    const switchYear = (built.get('1752') as Built).site;
    expect(prerenderedList('entries', { start: '1752-09-01', end: '1752-09-30' }, switchYear)).not.toBe(null);
  });
});

describe('dates of a calendar', () => {
  it('a Julian diary may hold 1700-02-29; a Gregorian one names the file and why not', async () => {
    const site = (calendar: CalendarName) => `calendar: ${calendar}\nperiod: { start: 1700-01-01, end: 1700-12-31 }\n`;
    const entry = { 'entries/1700/1700-02-29.html': entryFile('1700-02-29') };
    expect(await problemsOf({ 'site.yaml': site('julian'), ...entry })).toEqual([]);
    expect(await problemsOf({ 'site.yaml': site('british'), ...entry })).toEqual([]);
    const problems = await problemsOf({ 'site.yaml': site('gregorian'), ...entry });
    expect(problems.map((p) => [p.file, p.line, p.message])).toEqual([
      [
        'entries/1700/1700-02-29.html',
        2,
        '"date" must be a real calendar date written YYYY-MM-DD: 1700-02-29 is not a date of the Gregorian calendar: 1700 is not a leap year in it',
      ],
    ]);
  });

  it('checks a date, and a list of dates at once, as the calendar says, for every day of years around each rule', () => {
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const years = [0, 1, 4, 100, 400, 1500, 1582, 1600, 1700, 1751, 1752, 1753, 1800, 1900, 2000, 2100, 9996, 9999];
    for (const calendar of CALENDARS) {
      const wrong: string[] = [];
      const valid: string[] = [];
      for (const y of years)
        for (let m = 0; m <= 13; m++)
          for (let d = 0; d <= 32; d++) {
            const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
            const is = isValidDate(calendar, y, m, d);
            if (isCalendarDate(calendar, text) !== is) wrong.push(text);
            if (is) valid.push(text);
          }
      expect(wrong, calendar).toEqual([]);
      expect(areCalendarDates(calendar, valid), calendar).toBe(true);
      for (const odd of ['1700-02-29', '1752-09-05', '1900-02-29'])
        expect(areCalendarDates(calendar, [...valid, odd]), `${calendar} ${odd}`).toBe(
          isValidDate(calendar, ...(odd.split('-').map(Number) as [number, number, number])),
        );
    }
  });
});
