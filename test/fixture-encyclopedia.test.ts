// The synthetic encyclopedia fixture, at a small scale on synthetic entries: determinism, the
// shape of the category tree and topics, and the skewed distribution of topics over entries.

import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  type FixtureSummary,
  rewriteTopicsLine,
  seededRandom,
  writeEncyclopediaFixture,
} from '../scripts/fixture-encyclopedia.ts';
import { readTree } from './helpers/files.ts';
import { tempDir as makeTempDir } from './helpers/temp.ts';

const SCALE = 0.05; // 500 topics, a few dozen categories
const ENTRY_COUNT = 400;

const tempDir = () => makeTempDir('pepys-fixture-');

/** A content directory with ENTRY_COUNT consecutive entries and no encyclopedia. */
function writeEntries(dir: string): void {
  for (let i = 0; i < ENTRY_COUNT; i++) {
    const date = new Date(Date.UTC(1660, 0, 1 + i)).toISOString().slice(0, 10);
    mkdirSync(path.join(dir, 'entries', date.slice(0, 4)), { recursive: true });
    writeFileSync(
      path.join(dir, 'entries', date.slice(0, 4), `${date}.html`),
      `---\ndate: ${date}\ntopics: []\nannotationCount: 2\n---\n<p>Entry ${i}.</p>\n`,
    );
  }
  writeFileSync(path.join(dir, 'site.yaml'), 'pageSize: 50\n');
}

interface Category {
  slug: string;
  title: string;
  parent?: string;
}
interface Topic {
  id: number;
  title: string;
  orderTitle?: string;
  kind?: string;
  categories: string[];
  latitude?: number;
  longitude?: number;
  zoom?: number;
}

describe('encyclopedia fixture', () => {
  let dir: string;
  let summary: FixtureSummary;
  let files: Map<string, string>;
  let categories: Category[];
  let topics: Topic[];
  let entryTopics: Map<string, number[]>;

  beforeAll(() => {
    dir = tempDir();
    writeEntries(dir);
    summary = writeEncyclopediaFixture(dir, { scale: SCALE });
    files = readTree(dir);
    categories = parseYaml(files.get('categories.yaml') as string) as Category[];
    topics = [...files].filter(([f]) => f.startsWith('topics/')).map(([, text]) => parseYaml(text) as Topic);
    entryTopics = new Map(
      [...files]
        .filter(([f]) => f.startsWith('entries/'))
        .map(([f, text]) => [f, parseYaml(text.split('---\n')[1] as string).topics as number[]]),
    );
  });

  it('is deterministic: same input, identical files; a re-run changes nothing', () => {
    const other = tempDir();
    writeEntries(other);
    writeEncyclopediaFixture(other, { scale: SCALE });
    expect(readTree(other)).toEqual(files);
    writeEncyclopediaFixture(other, { scale: SCALE });
    expect(readTree(other)).toEqual(files);
    const reseeded = tempDir();
    writeEntries(reseeded);
    writeEncyclopediaFixture(reseeded, { scale: SCALE, seed: 'another' });
    expect(readTree(reseeded).get('topics/1.yaml')).not.toBe(files.get('topics/1.yaml'));
  });

  it('builds a category tree of at most three levels whose inner categories hold no topics', () => {
    const bySlug = new Map(categories.map((c) => [c.slug, c]));
    expect(bySlug.size).toBe(categories.length);
    for (const c of categories) expect(c.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    const depth = (c: Category): number => (c.parent === undefined ? 1 : 1 + depth(bySlug.get(c.parent) as Category));
    expect(Math.max(...categories.map(depth))).toBe(3);
    const parents = new Set(categories.map((c) => c.parent).filter((p) => p !== undefined));
    const named = new Set(topics.flatMap((t) => t.categories));
    expect(parents.size).toBeGreaterThan(0);
    for (const slug of parents) expect(named.has(slug as string), slug).toBe(false);
    for (const slug of named) expect(bySlug.has(slug)).toBe(true);
    expect(summary.categories).toBe(categories.length);
    expect(summary.groupingCategories).toBe(parents.size);
  });

  it('writes small topic files of all three kinds, each in 1–3 categories', () => {
    expect(topics.map((t) => t.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    const kinds = new Set(topics.map((t) => t.kind ?? 'default'));
    expect([...kinds].sort()).toEqual(['default', 'person', 'place']);
    for (const t of topics) {
      expect(t.categories.length).toBeGreaterThanOrEqual(1);
      expect(t.categories.length).toBeLessThanOrEqual(3);
      expect(typeof t.title).toBe('string');
      if (t.kind === 'place') {
        expect(t.latitude).toBeGreaterThan(49);
        expect(t.latitude).toBeLessThan(56);
        expect(typeof t.longitude).toBe('number');
        expect(typeof t.zoom).toBe('number');
      } else {
        expect(t.latitude).toBeUndefined();
      }
    }
    for (const [file, text] of files)
      if (file.startsWith('topics/')) expect(text.split('\n').length).toBeLessThanOrEqual(9);
  });

  it('gives each entry 0–40 known topics, with a skew: a few topics in many entries, most in few', () => {
    const known = new Set(topics.map((t) => t.id));
    const perTopic = new Map<number, number>();
    let empty = 0;
    for (const ids of entryTopics.values()) {
      expect(ids.length).toBeLessThanOrEqual(40);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
      if (ids.length === 0) empty++;
      for (const id of ids) {
        expect(known.has(id)).toBe(true);
        perTopic.set(id, (perTopic.get(id) ?? 0) + 1);
      }
    }
    expect(empty).toBeGreaterThan(0);
    expect(Math.max(...[...entryTopics.values()].map((ids) => ids.length))).toBeGreaterThan(20);
    const counts = topics.map((t) => perTopic.get(t.id) ?? 0).sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThan(ENTRY_COUNT * 0.25); // the most popular topic is everywhere
    expect(counts[4]).toBeGreaterThan(ENTRY_COUNT * 0.05);
    expect(counts[Math.floor(counts.length / 2)]).toBeLessThanOrEqual(3); // the median topic is rare
    expect(summary.topTopicEntryCounts[0]).toBe(counts[0]);
  });

  it('rewrites only the topics line of each entry', () => {
    const text = files.get(path.join('entries', '1660', '1660-01-05.html')) as string;
    expect(text).toMatch(/^---\ndate: 1660-01-05\ntopics: \[[\d, ]*\]\nannotationCount: 2\n---\n<p>Entry 4\.<\/p>\n$/);
    expect(files.get('site.yaml')).toBe('pageSize: 50\n');
  });

  it('scales the number of topics and categories', () => {
    const bigger = tempDir();
    cpSync(dir, bigger, { recursive: true });
    const twice = writeEncyclopediaFixture(bigger, { scale: SCALE * 2 });
    const total = (s: FixtureSummary): number => s.topics.person + s.topics.place + s.topics.default;
    expect(total(twice)).toBe(2 * total(summary));
    expect(twice.categories).toBeGreaterThan(summary.categories);
    expect(readdirSync(path.join(bigger, 'topics')).length).toBe(1000);
  });
});

describe('fixture helpers', () => {
  it('replaces a block-sequence topics key or adds a missing one', () => {
    expect(rewriteTopicsLine('---\ndate: 1660-01-01\ntopics:\n  - 3\n  - 4\ntitle: T\n---\n<p>x</p>\n', [1, 2])).toBe(
      '---\ndate: 1660-01-01\ntopics: [1, 2]\ntitle: T\n---\n<p>x</p>\n',
    );
    expect(rewriteTopicsLine('---\ndate: 1660-01-01\n---\n<p>x</p>\n', [])).toBe(
      '---\ndate: 1660-01-01\ntopics: []\n---\n<p>x</p>\n',
    );
  });

  it('has a seeded PRNG that repeats itself', () => {
    const a = seededRandom('s');
    const b = seededRandom('s');
    const drawn = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(drawn);
    for (const x of drawn) expect(x >= 0 && x < 1).toBe(true);
  });
});
