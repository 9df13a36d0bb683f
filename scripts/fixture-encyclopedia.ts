// A full-scale, synthetic encyclopedia for a content directory that already has entries:
//   npx tsx scripts/fixture-encyclopedia.ts <content dir> [--scale N] [--seed S]
//
// Writes `categories.yaml` (about 250 categories × N in a three-level tree; the inner categories
// group and hold no topics), `topics/<id>.yaml` (10,000 × N topics of all three kinds, each in 1–3
// leaf categories) and rewrites the `topics:` line of every entry so that each entry mentions 0–40
// topics, drawn with a Zipf-like skew so that a few topics appear in hundreds of entries and most
// in a handful. Everything comes from a seeded PRNG: the same directory and options give
// byte-identical files. All names are generated from word pools; no text is copied from anywhere.
//
// The fixture owns `categories.yaml` and `topics/` (replaced whole) and only the `topics:` line
// of each entry; it touches nothing else.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fail } from '../generator/cli/exit.ts';
import { parseCommand, STANDARD_OPTIONS } from '../generator/cli/options.ts';
import { prngOf } from '../generator/core/random.ts';
import { DERIVED_ID_MIN } from '../generator/import/encyclopedia.ts';
import { IMPORTED_TOPICS_DIR, importedCategories } from '../generator/import/topic-files.ts';

// ---------------------------------------------------------------------------------------------
// Seeded randomness: the project's one generator (generator/core/random.ts), as floats.

export type Random = () => number;

/** A PRNG returning floats in [0, 1), fully determined by `seed`. */
export function seededRandom(seed: string): Random {
  const rand = prngOf(seed);
  return () => rand(0x100000000) / 0x100000000;
}

const int = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** Samples indexes 0…n-1 with probability ∝ 1/(i+1)^s (a Zipf law) by binary search on the CDF. */
export class ZipfSampler {
  private readonly cdf: Float64Array;
  constructor(n: number, s: number) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) this.cdf[i] = total += 1 / (i + 1) ** s;
    for (let i = 0; i < n; i++) this.cdf[i] = (this.cdf[i] as number) / total;
  }
  sample(random: Random): number {
    const u = random();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cdf[mid] as number) > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

// ---------------------------------------------------------------------------------------------
// Word pools for synthetic names: plausible for the period, but assembled at random.

const THEMES = [
  'People',
  'Places',
  'Government',
  'Navy',
  'Household',
  'Arts',
  'Science',
  'Religion',
  'Trade',
  'Law',
  'Health',
  'Food and Drink',
  'Entertainment',
  'Transport',
  'Clothing',
  'Books',
  'Military',
  'Finance',
  'Buildings',
  'Nature',
];
const ADJECTIVES = [
  'Royal',
  'Common',
  'Lesser',
  'Greater',
  'Old',
  'New',
  'Private',
  'Public',
  'Foreign',
  'Domestic',
  'Naval',
  'Civil',
  'Sacred',
  'Secular',
  'Northern',
  'Southern',
  'Eastern',
  'Western',
  'Upper',
  'Lower',
  'Ancient',
  'Modern',
  'Courtly',
  'Rural',
  'Maritime',
  'Learned',
  'Popular',
  'Minor',
];
const NOUNS = [
  'Offices',
  'Courts',
  'Ships',
  'Yards',
  'Taverns',
  'Churches',
  'Instruments',
  'Music',
  'Plays',
  'Coins',
  'Debts',
  'Fabrics',
  'Coaches',
  'Gardens',
  'Markets',
  'Guilds',
  'Colleges',
  'Prisons',
  'Remedies',
  'Diseases',
  'Sermons',
  'Pamphlets',
  'Regiments',
  'Forts',
  'Bridges',
  'Streets',
  'Wharves',
  'Halls',
  'Households',
  'Servants',
  'Relatives',
  'Clerks',
  'Merchants',
  'Officials',
  'Voyages',
  'Treaties',
  'Taxes',
  'Games',
  'Dishes',
  'Wines',
  'Animals',
  'Weather',
  'Maps',
];
const FORENAMES = [
  'John',
  'William',
  'Thomas',
  'Richard',
  'Robert',
  'Edward',
  'Henry',
  'George',
  'James',
  'Samuel',
  'Nicholas',
  'Anthony',
  'Francis',
  'Walter',
  'Hugh',
  'Ralph',
  'Roger',
  'Matthew',
  'Philip',
  'Peter',
  'Elizabeth',
  'Anne',
  'Mary',
  'Margaret',
  'Jane',
  'Katherine',
  'Frances',
  'Dorothy',
  'Alice',
  'Susan',
  'Judith',
  'Martha',
  'Bridget',
  'Agnes',
  'Grace',
  'Ursula',
];
const HONORIFICS = ['', '', '', '', 'Sir ', 'Mr ', 'Mrs ', 'Dr ', 'Captain ', 'Lady ', 'Lord '];
const NAME_STARTS = [
  'Ash',
  'Brad',
  'Carl',
  'Dun',
  'Elm',
  'Fair',
  'Gold',
  'Hart',
  'Ing',
  'Kel',
  'Lang',
  'Mor',
  'Nor',
  'Over',
  'Pen',
  'Quen',
  'Rad',
  'Stan',
  'Thorn',
  'Wex',
  'Whit',
  'Yar',
  'Bark',
  'Cob',
  'Fen',
  'Hol',
];
const NAME_ENDS = [
  'combe',
  'well',
  'ton',
  'ley',
  'field',
  'ford',
  'wick',
  'by',
  'more',
  'den',
  'stead',
  'worth',
  'ham',
  'hurst',
  'bridge',
  'cote',
  'dale',
  'gate',
  'holme',
  'thwaite',
];
const PLACE_KINDS = [
  'Street',
  'Lane',
  'Court',
  'Yard',
  'Hall',
  'Church',
  'Wharf',
  'Stairs',
  'Tavern',
  'House',
  'Square',
  'Fields',
  'Market',
  'Gate',
  'Alley',
  'Close',
  'Inn',
  'Dock',
];
const THINGS = [
  'Tankard',
  'Periwig',
  'Theorbo',
  'Flageolet',
  'Pottage',
  'Venison Pasty',
  'Chocolate',
  'Sack',
  'Claret',
  'Almanac',
  'Globe',
  'Telescope',
  'Sermon',
  'Ballad',
  'Masque',
  'Tally',
  'Warrant',
  'Commission',
  'Victualling',
  'Cordage',
  'Hemp',
  'Tar',
  'Mast',
  'Musket',
  'Gunpowder',
  'Lottery',
  'Petition',
  'Lease',
  'Dowry',
  'Coach',
  'Sedan',
  'Barge',
  'Ague',
  'Physic',
  'Plague Bill',
  'Comet',
];

// ---------------------------------------------------------------------------------------------
// The model of the fixture.

export interface FixtureCategory {
  slug: string;
  title: string;
  parent: string | null;
  depth: 1 | 2 | 3;
  /** True for categories that have children: they group and hold no topics. */
  grouping: boolean;
}

export type TopicKind = 'person' | 'place' | 'default';

export interface FixtureTopic {
  id: number;
  title: string;
  orderTitle: string | null;
  kind: TopicKind;
  categories: string[];
  place: { latitude: string; longitude: string; zoom: number } | null;
}

export interface FixtureOptions {
  /** Multiplies the number of topics and categories. Default 1 (10,000 topics, ~250 categories). */
  scale?: number;
  /** Seed of every random choice. Default 'pepys-fixture'. */
  seed?: string;
}

export const TOPICS_AT_SCALE_1 = 10_000;
export const MAX_TOPICS_PER_ENTRY = 40;

function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * A three-level tree: themes → subjects → leaves; some subjects are leaves themselves. `taken`:
 * slugs already used beside the fixture (the import's encyclopedia), which it must not reuse.
 */
export function generateCategories(scale: number, seed: string, taken: readonly string[] = []): FixtureCategory[] {
  const random = seededRandom(`${seed}/categories`);
  const categories: FixtureCategory[] = [];
  const used = new Set<string>(taken);
  const unique = (title: string): { slug: string; title: string } => {
    let candidate = title;
    for (let n = 2; used.has(slugify(candidate)); n++) candidate = `${title} ${n}`;
    used.add(slugify(candidate));
    return { slug: slugify(candidate), title: candidate };
  };
  // Grown subject by subject until the target size, so every scale gets its share (~250 at 1).
  const target = Math.max(4, Math.round(250 * scale));
  for (let t = 0; categories.length < target; t++) {
    const round = Math.floor(t / THEMES.length);
    const theme = unique(`${THEMES[t % THEMES.length]}${round > 0 ? ` ${round + 1}` : ''}`);
    categories.push({ ...theme, parent: null, depth: 1, grouping: true });
    const subjects = int(random, 3, 6);
    for (let s = 0; s < subjects && (s === 0 || categories.length < target); s++) {
      const subject = unique(`${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`);
      // About one subject in ten has no children: a leaf at depth 2.
      const leaves = random() < 0.1 ? 0 : int(random, 4, 6);
      categories.push({ ...subject, parent: theme.slug, depth: 2, grouping: leaves > 0 });
      for (let l = 0; l < leaves; l++) {
        const leaf = unique(`${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`);
        categories.push({ ...leaf, parent: subject.slug, depth: 3, grouping: false });
      }
    }
  }
  return categories;
}

function personName(random: Random): { title: string; orderTitle: string } {
  const surname = `${pick(random, NAME_STARTS)}${pick(random, NAME_ENDS)}`;
  const honorific = pick(random, HONORIFICS);
  const forename = random() < 0.85 ? pick(random, FORENAMES) : '';
  const given = `${honorific}${forename}`.trim();
  return { title: `${given} ${surname}`.trim(), orderTitle: given === '' ? surname : `${surname}, ${given}` };
}

export function generateTopics(count: number, categories: readonly FixtureCategory[], seed: string): FixtureTopic[] {
  const random = seededRandom(`${seed}/topics`);
  const leaves = categories.filter((c) => !c.grouping).map((c) => c.slug);
  // Leaves are chosen with a mild skew too, so categories range from a few topics to hundreds.
  const leafOrder = shuffle(random, [...leaves]);
  const leafSampler = new ZipfSampler(leafOrder.length, 0.7);
  const topics: FixtureTopic[] = [];
  for (let id = 1; id <= count; id++) {
    const roll = random();
    const kind: TopicKind = roll < 0.45 ? 'person' : roll < 0.7 ? 'place' : 'default';
    let title: string;
    let orderTitle: string | null = null;
    let place: FixtureTopic['place'] = null;
    if (kind === 'person') {
      ({ title, orderTitle } = personName(random));
    } else if (kind === 'place') {
      title = `${pick(random, NAME_STARTS)}${pick(random, NAME_ENDS)} ${pick(random, PLACE_KINDS)}`;
      title = title.charAt(0).toUpperCase() + title.slice(1);
      // Most places in and around London; one in ten elsewhere in England.
      const near = random() < 0.9;
      const latitude = near ? 51.45 + random() * 0.11 : 50.5 + random() * 3;
      const longitude = near ? -0.25 + random() * 0.35 : -3 + random() * 4.5;
      place = {
        latitude: latitude.toFixed(4),
        longitude: longitude.toFixed(4),
        zoom: near ? int(random, 14, 17) : int(random, 9, 12),
      };
    } else {
      title = random() < 0.5 ? `${pick(random, ADJECTIVES)} ${pick(random, THINGS)}` : pick(random, THINGS);
    }
    const wanted = random() < 0.6 ? 1 : random() < 0.75 ? 2 : 3;
    const chosen = new Set<string>();
    for (let attempts = 0; chosen.size < Math.min(wanted, leafOrder.length) && attempts < 100; attempts++) {
      chosen.add(leafOrder[leafSampler.sample(random)] as string);
    }
    topics.push({ id, title, orderTitle, kind, categories: [...chosen].sort(), place });
  }
  return topics;
}

/**
 * Topic ids mentioned by one entry: 0–40 of them, ascending. The count is log-normal around 9
 * (with one entry in twenty mentioning none); which topics, a Zipf law over a seeded popularity
 * order, so that the first few topics of that order appear in hundreds of entries.
 */
export function entryTopicIds(
  entryKey: string,
  popularity: readonly number[],
  sampler: ZipfSampler,
  seed: string,
): number[] {
  const random = seededRandom(`${seed}/entry/${entryKey}`);
  if (random() < 0.05 || popularity.length === 0) return [];
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const wanted = Math.min(
    MAX_TOPICS_PER_ENTRY,
    popularity.length,
    Math.max(1, Math.round(Math.exp(Math.log(9) + 0.7 * normal))),
  );
  const ids = new Set<number>();
  for (let attempts = 0; ids.size < wanted && attempts < wanted * 50; attempts++) {
    ids.add(popularity[sampler.sample(random)] as number);
  }
  return [...ids].sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Files.

/** A YAML scalar: plain when unambiguous, else a JSON string (valid YAML double-quoted). */
function yamlString(text: string): string {
  return /^[A-Z][A-Za-z' ,.-]*[A-Za-z.]$/.test(text) &&
    !/^(?:Yes|No|On|Off|True|False|Null|Y|N)$/i.test(text) &&
    !/ #|: /.test(text)
    ? text
    : JSON.stringify(text);
}

export function renderCategoriesYaml(categories: readonly FixtureCategory[]): string {
  return categories
    .map(
      (c) =>
        `- slug: ${c.slug}\n  title: ${yamlString(c.title)}${c.parent === null ? '' : `\n  parent: ${c.parent}`}\n`,
    )
    .join('');
}

/** Only the keys a topic needs; the keys the format defaults are left out (parsing cost is per key), but for kind. */
export function renderTopicYaml(topic: FixtureTopic): string {
  const lines = [`id: ${topic.id}`, `title: ${yamlString(topic.title)}`];
  if (topic.orderTitle !== null && topic.orderTitle !== topic.title)
    lines.push(`orderTitle: ${yamlString(topic.orderTitle)}`);
  // Always given: the categories are drawn at random, and a topic of kind default in a category
  // below `people` or `places` would otherwise be derived a person or a place (site.yaml `kinds`).
  lines.push(`kind: ${topic.kind}`);
  lines.push(`categories: [${topic.categories.join(', ')}]`);
  if (topic.place) {
    lines.push(`latitude: ${topic.place.latitude}`, `longitude: ${topic.place.longitude}`, `zoom: ${topic.place.zoom}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Replace (or add) the `topics:` key of an entry file's front matter; the rest is untouched. */
export function rewriteTopicsLine(text: string, ids: readonly number[], file = 'entry'): string {
  const m = /^---\r?\n([\s\S]*?\r?\n)?---(?:\r?\n|$)/.exec(text);
  if (!m) throw new Error(`${file}: no YAML front matter`);
  const front = m[1] ?? '';
  const line = `topics: [${ids.join(', ')}]\n`;
  const lines = front.split(/(?<=\n)/);
  const at = lines.findIndex((l) => /^topics\s*:/.test(l));
  if (at === -1) {
    const dateAt = lines.findIndex((l) => /^date\s*:/.test(l));
    lines.splice(dateAt + 1, 0, line);
  } else {
    // A block sequence (`topics:` then indented `- 1` lines) goes with its key.
    let end = at + 1;
    while (end < lines.length && /^(?:\s+\S|-\s|\s*$)/.test(lines[end] as string)) end++;
    lines.splice(at, end - at, line);
  }
  const closing = m.index + m[0].lastIndexOf('---');
  return `---\n${lines.join('')}${text.slice(closing)}`;
}

function entryFiles(contentDir: string): string[] {
  const root = path.join(contentDir, 'entries');
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const item of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, item.name);
      if (item.isDirectory()) walk(child);
      else if (item.name.endsWith('.html')) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

export interface FixtureSummary {
  categories: number;
  groupingCategories: number;
  leafCategories: number;
  topics: Record<TopicKind, number>;
  entries: number;
  mentions: number;
  entriesWithoutTopics: number;
  maxTopicsPerEntry: number;
  /** How many entries the most-mentioned topics appear in, most first (top 5). */
  topTopicEntryCounts: number[];
}

/** Write the fixture into `contentDir` (which must hold entries) and return what it wrote. */
export function writeEncyclopediaFixture(contentDir: string, options: FixtureOptions = {}): FixtureSummary {
  const scale = options.scale ?? 1;
  const seed = options.seed ?? 'pepys-fixture';
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error(`--scale must be a positive number, not ${scale}`);
  const files = entryFiles(contentDir);
  if (files.length === 0) throw new Error(`${contentDir}: no entries/**/*.html; import or write entries first`);

  // The encyclopedia an import derived (its block of categories.yaml, topics/standard-ebooks/)
  // stays: the fixture adds to it. Its ids are 9 digits, the fixture's 1…N; its slugs are kept out.
  const categoriesFile = path.join(contentDir, 'categories.yaml');
  const imported = importedCategories(existsSync(categoriesFile) ? readFileSync(categoriesFile, 'utf8') : null);
  const count = Math.max(1, Math.round(TOPICS_AT_SCALE_1 * scale));
  if (count >= DERIVED_ID_MIN)
    throw new Error(`--scale ${scale} would give ids the import's topics use (from ${DERIVED_ID_MIN})`);
  const categories = generateCategories(scale, seed, imported?.slugs ?? []);
  const topics = generateTopics(count, categories, seed);
  writeFileSync(categoriesFile, renderCategoriesYaml(categories) + (imported?.block ?? ''));

  // topics/ is replaced whole, through a staging directory, so no topic of an earlier run lingers;
  // but for the import's directory, moved across.
  const staging = path.join(contentDir, `.topics-fixture-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  for (const topic of topics) writeFileSync(path.join(staging, `${topic.id}.yaml`), renderTopicYaml(topic));
  const importedTopics = path.join(contentDir, 'topics', IMPORTED_TOPICS_DIR);
  if (existsSync(importedTopics)) renameSync(importedTopics, path.join(staging, IMPORTED_TOPICS_DIR));
  rmSync(path.join(contentDir, 'topics'), { recursive: true, force: true });
  renameSync(staging, path.join(contentDir, 'topics'));

  const popularity = shuffle(
    seededRandom(`${seed}/popularity`),
    topics.map((t) => t.id),
  );
  const sampler = new ZipfSampler(popularity.length, 1);
  const perTopic = new Map<number, number>();
  let mentions = 0;
  let entriesWithoutTopics = 0;
  let maxTopicsPerEntry = 0;
  for (const relative of files) {
    const file = path.join(contentDir, 'entries', relative);
    const text = readFileSync(file, 'utf8');
    // Keyed by the entry's date, so an entry's topics do not depend on which other entries exist.
    const key = /^date:\s*(\S+)/m.exec(text)?.[1] ?? relative;
    const ids = entryTopicIds(key, popularity, sampler, seed);
    writeFileSync(file, rewriteTopicsLine(text, ids, relative));
    mentions += ids.length;
    if (ids.length === 0) entriesWithoutTopics++;
    maxTopicsPerEntry = Math.max(maxTopicsPerEntry, ids.length);
    for (const id of ids) perTopic.set(id, (perTopic.get(id) ?? 0) + 1);
  }

  const kinds: Record<TopicKind, number> = { person: 0, place: 0, default: 0 };
  for (const topic of topics) kinds[topic.kind]++;
  return {
    categories: categories.length,
    groupingCategories: categories.filter((c) => c.grouping).length,
    leafCategories: categories.filter((c) => !c.grouping).length,
    topics: kinds,
    entries: files.length,
    mentions,
    entriesWithoutTopics,
    maxTopicsPerEntry,
    topTopicEntryCounts: [...perTopic.values()].sort((a, b) => b - a).slice(0, 5),
  };
}

// ---------------------------------------------------------------------------------------------
// Command line.

const USAGE = `usage: npm run fixture -- <content dir> [--scale N] [--seed S]

Writes a synthetic encyclopedia (categories.yaml, topics/) into a content directory whose
entries/ is already there, and the entries' topic mentions.

  <content dir>        the content directory (its entries/ must exist)
  --scale <n>          the encyclopedia's size relative to the reference site's (default: 1)
  --seed <s>           seed of the random choices (default: fixed)
  -h, --help           this help
  --version            the version, and Node's
`;

function main(argv: string[]): number {
  const { values, positionals } = parseCommand('npm run fixture', USAGE, {
    args: argv,
    allowPositionals: true,
    options: { ...STANDARD_OPTIONS, scale: { type: 'string' }, seed: { type: 'string' } },
  });
  const options: FixtureOptions = {};
  if (values.scale !== undefined) {
    const scale = Number(values.scale);
    if (!(scale > 0) || !Number.isFinite(scale)) fail(`--scale must be a positive number, not ${values.scale}`);
    options.scale = scale;
  }
  if (values.seed !== undefined) options.seed = values.seed;
  const [contentDir, ...rest] = positionals;
  if (contentDir === undefined) fail('missing <content dir> (npm run fixture -- --help)');
  if (rest.length > 0) fail(`unexpected argument ${rest[0]} (npm run fixture -- --help)`);
  try {
    const started = performance.now();
    const s = writeEncyclopediaFixture(contentDir, options);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    process.stdout.write(
      `fixture written to ${contentDir} in ${seconds} s\n` +
        `  categories: ${s.categories} (${s.groupingCategories} grouping, ${s.leafCategories} leaves)\n` +
        `  topics: ${s.topics.person + s.topics.place + s.topics.default} ` +
        `(person ${s.topics.person}, place ${s.topics.place}, default ${s.topics.default})\n` +
        `  entries: ${s.entries}; mentions: ${s.mentions}; without topics: ${s.entriesWithoutTopics}; ` +
        `most in one entry: ${s.maxTopicsPerEntry}\n` +
        `  entries of the most-mentioned topics: ${s.topTopicEntryCounts.join(', ')}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`fixture: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
