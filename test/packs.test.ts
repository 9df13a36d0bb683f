// Records packed into fewer files (core/packs.ts): the layout's bounds at any size, the format read
// back byte for byte, and the reader through which the handler sees a detail as a file of its own.

import { describe, expect, it } from 'vitest';
import type { ReadFile } from '../generator/core/answer-types.ts';
import { detailFile } from '../generator/core/files.ts';
import {
  isPackFile,
  packCount,
  packFile,
  packGroups,
  packMembers,
  packOf,
  packText,
  recordPackFile,
  unpack,
  unpacking,
} from '../generator/core/packs.ts';
import { prng } from '../generator/core/random.ts';
import type { SiteIndex } from '../generator/core/site-index.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Consecutive days from 1660-01-01, as ISO dates. */
function days(count: number): string[] {
  const start = Date.UTC(1660, 0, 1);
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

describe('the layout of the packs', () => {
  it('keeps every collection, up to millions of records, in packs of about 8 to 16, 256 a directory', () => {
    for (const count of [0, 1, 15, 16, 17, 171, 3_413, 10_000, 100_000, 300_000, 3_000_000]) {
      const packs = packCount(count);
      expect(Number.isInteger(Math.log2(packs)), `${count}`).toBe(true);
      expect(packs * 16, `${count}`).toBeGreaterThanOrEqual(count);
      if (count > 16) expect(packs * 8, `${count}`).toBeLessThan(count);
      const dirs = new Map<string, number>();
      for (let p = 0; p < packs; p++) {
        const dir = packFile('topics', p).replace(/\/[^/]+$/, '');
        dirs.set(dir, (dirs.get(dir) ?? 0) + 1);
      }
      expect(Math.max(...dirs.values()), `${count}`).toBeLessThanOrEqual(256);
    }
  });

  it('spreads dates and ids evenly: no pack holds more than twice its share', () => {
    for (const keys of [days(3_413), days(21_900), Array.from({ length: 100_000 }, (_, i) => String(i + 1))]) {
      const members = packMembers(keys);
      const packs = packCount(keys.length);
      const largest = Math.max(...[...members.values()].map((m) => m.length));
      expect(largest, `${keys.length}`).toBeLessThanOrEqual((2 * keys.length) / packs + 8);
      // Every record is in exactly one pack, the one packOf names, in the list's order.
      const seen: number[] = [];
      // What is wrong gathered and asserted once: an expect call per record or pack took ~2 s.
      const wrong: string[] = [];
      for (const [pack, positions] of members) {
        positions.forEach((p, i) => {
          if (packOf(keys[p] as string, packs) !== pack) wrong.push(`${keys[p]} is not in pack ${pack}`);
          if (i > 0 && p <= (positions[i - 1] as number)) wrong.push(`pack ${pack} is out of order at ${p}`);
        });
        seen.push(...positions);
      }
      expect(wrong).toEqual([]);
      seen.sort((a, b) => a - b);
      expect(seen.length).toBe(keys.length);
      expect(seen.findIndex((p, i) => p !== i)).toBe(-1);
    }
  });

  it('moves a record only when its collection doubles or halves', () => {
    const keys = days(1_000);
    const packs = packCount(keys.length);
    expect(packCount(keys.length + 1)).toBe(packs);
    expect(packCount(keys.length - 1)).toBe(packs);
    for (const key of keys) expect(packOf(key, packs)).toBe(packOf(key, packCount(1_000)));
  });
});

describe('the packs of the entries', () => {
  it('hold the entries of one half of one month each, in date order, 16 at most, a directory a year', () => {
    // Every day of 60 years, and a diary of a day in nine, over three calendars' worth of dates.
    const sparse = days(21_900).filter((_, i) => i % 9 === 0);
    for (const dates of [days(21_900), sparse, ['0001-01-01', '0001-01-15', '0001-01-16', '9999-12-31']]) {
      const groups = packGroups('entries', dates);
      const wrong: string[] = [];
      const seen: number[] = [];
      for (const [pack, positions] of groups) {
        const halves = new Set(
          positions.map((p) => `${(dates[p] as string).slice(0, 7)} ${Number((dates[p] as string).slice(8)) > 15}`),
        );
        if (halves.size !== 1) wrong.push(`${pack} holds ${[...halves].join(', ')}`);
        if (positions.length > 16) wrong.push(`${pack} holds ${positions.length}`);
        const [year] = (dates[positions[0] as number] as string).split('-');
        if (!pack.startsWith(`_data/records/entries/${year}/`)) wrong.push(`${pack} is not in its year's directory`);
        positions.forEach((p, i) => {
          if (recordPackFile('entries', dates[p] as string, dates.length) !== pack)
            wrong.push(`${dates[p]} is not in ${pack}`);
          if (i > 0 && p <= (positions[i - 1] as number)) wrong.push(`${pack} is out of order at ${p}`);
        });
        seen.push(...positions);
      }
      expect(wrong).toEqual([]);
      expect(seen.sort((a, b) => a - b)).toEqual(dates.map((_, i) => i));
      expect(new Set([...groups.keys()].map((pack) => pack.split('/')[3])).size).toBeLessThanOrEqual(60);
      expect([...groups.keys()].every(isPackFile)).toBe(true);
    }
    // 1660-01-01 to 15 are January's first half, 16 to 31 its second; 1660-12-31 December's second.
    expect(recordPackFile('entries', '1660-01-15', 1)).toBe('_data/records/entries/1660/0.pack');
    expect(recordPackFile('entries', '1660-01-16', 1)).toBe('_data/records/entries/1660/1.pack');
    expect(recordPackFile('entries', '1660-12-31', 1)).toBe('_data/records/entries/1660/23.pack');
  });

  it('move no entry when an entry comes or goes: its own pack alone changes', () => {
    const dates = days(1_000);
    const before = packGroups('entries', dates);
    const fewer = dates.filter((d) => d !== '1661-03-20');
    const after = packGroups('entries', fewer);
    const changed = [...before.keys()].filter(
      (pack) =>
        JSON.stringify(before.get(pack)?.map((p) => dates[p])) !==
        JSON.stringify(after.get(pack)?.map((p) => fewer[p])),
    );
    expect(changed).toEqual([recordPackFile('entries', '1661-03-20', dates.length)]);
  });
});

describe('a pack', () => {
  it('gives back each body byte for byte, whatever its characters', () => {
    const rand = prng(1666);
    const alphabet = ['a', '"', '\\', '\n', 'é', 'ſ', '—', '😀', '{', '}', ' '];
    for (let round = 0; round < 50; round++) {
      const records = Array.from({ length: 1 + rand(20) }, (_, i) => {
        const body = Array.from({ length: rand(200) }, () => alphabet[rand(alphabet.length)]).join('');
        return [String(i * 7 + round), body] as const;
      });
      const bytes = encoder.encode(packText(records));
      const read = unpack(bytes);
      expect([...(read?.keys() ?? [])]).toEqual(records.map(([key]) => key));
      for (const [key, body] of records) expect(decoder.decode(read?.get(key))).toBe(body);
    }
  });

  it('is refused when it is not one: no table, a broken table, a record past its end', () => {
    const good = encoder.encode(packText([['1', '{"id": 1}']]));
    expect(unpack(good)?.size).toBe(1);
    for (const text of [
      '',
      '{"id": 1}',
      'not json\n{}',
      '{"1":[0,9]}\n{"id": 1}',
      '[["1",0]]\n{"id": 1}',
      '[[1,0,9]]\n{"id": 1}',
      '[["1",-1,9]]\n{"id": 1}',
      '[["1",0,10]]\n{"id": 1}',
      '[["1",0.5,8]]\n{"id": 1}',
    ])
      expect(unpack(encoder.encode(text)), text).toBeNull();
  });
});

describe('reading through the packs', () => {
  const dates = days(100);
  const site = {
    entryDates: dates,
    categorySlugs: new Set(['navy', 'music']),
    topicIds: new Set([1, 2, 3]),
  } as unknown as SiteIndex;
  const files = new Map<string, Uint8Array>();
  const bodies = new Map<string, string>();
  const collections = { entries: dates, categories: ['music', 'navy'], topics: ['1', '2', '3'] } as const;
  for (const [collection, keys] of Object.entries(collections) as Array<[keyof typeof collections, string[]]>) {
    for (const [pack, positions] of packGroups(collection, keys)) {
      const records = positions.map((p) => [keys[p] as string, `{"key": "${keys[p]}", "é": "${collection}"}`] as const);
      for (const [key, body] of records) bodies.set(detailFile(collection, key), body);
      files.set(pack, encoder.encode(packText(records)));
    }
  }
  files.set('api/v1/index.json', encoder.encode('{}'));
  const asked: string[] = [];
  const readSite: ReadFile = async (file) => {
    asked.push(file);
    return files.get(file) ?? null;
  };

  it('reads every detail as the file it was, and any other file as it is', async () => {
    const read = unpacking(readSite, site);
    for (const [file, body] of bodies) expect(decoder.decode((await read(file)) as Uint8Array), file).toBe(body);
    expect(decoder.decode((await read('api/v1/index.json')) as Uint8Array)).toBe('{}');
    expect(asked.every((file) => files.has(file))).toBe(true);
  });

  it('reads a record its pack lacks, or a pack that is not one, as missing', async () => {
    const read = unpacking(readSite, site);
    expect(await read(detailFile('entries', '1700-01-01'))).toBeNull();
    expect(await read('api/v1/nothing.json')).toBeNull();
    const broken = unpacking(async (file) => (file.endsWith('.pack') ? encoder.encode('garbage') : null), site);
    expect(await broken(detailFile('topics', '1'))).toBeNull();
  });

  it('gives the same bytes again for the same pack: what the core keeps parsed forms by', async () => {
    const read = unpacking(readSite, site);
    const first = await read(detailFile('entries', dates[5] as string));
    expect(await read(detailFile('entries', dates[5] as string))).toBe(first);
    // And reads synchronously from a synchronous reader (the local server's).
    const sync = unpacking((file) => files.get(file) ?? null, site);
    expect(sync(detailFile('topics', '2'))).toBeInstanceOf(Uint8Array);
  });
});
