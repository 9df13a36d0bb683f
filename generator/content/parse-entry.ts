// One entry file: YAML front matter, the entry's HTML, then optionally the footnotes' HTML.

import { dateProblem, parseIsoDate } from '../core/calendar.ts';
import type { Entry, SiteConfig } from '../core/model.ts';
import { ENTRY, ENTRY_FILE_KEYS } from '../core/record-fields.ts';
import { entryTitle, hasTitleShape } from '../core/titles.ts';
import { refuseCharacters } from './characters.ts';
import { rewriteOldTopicLinks, topicLinks } from './derive.ts';
import { asMapping, type FieldSource, lineOf, problem, readFields, rejectUnknownKeys } from './fields.ts';
import { titleRules } from './locale.ts';
import { lineAt, type Problem } from './problems.ts';
import { parseYaml } from './yaml-text.ts';

export const FOOTNOTES_MARKER = '<!-- footnotes -->';

export interface ParsedEntry {
  file: string;
  /** Lines of the `date` and `topics` keys, to locate cross-file problems. */
  dateLine: number;
  topicsLine: number;
  /** The title given in the file, if any; the computed one otherwise. */
  givenTitle: string | null;
  /** The topics its text and footnotes link to (derive.ts topicLinks), with each link's line. */
  links: Array<{ id: number; line: number }>;
  entry: Omit<Entry, 'title'>;
}

export function parseEntryFile(
  text: string,
  file: string,
  config: SiteConfig,
  problems: Problem[],
): ParsedEntry | null {
  if (!text.startsWith('---\n')) {
    problems.push({
      file,
      line: 1,
      message: 'an entry file must start with a "---" line opening its YAML front matter',
    });
    return null;
  }
  const close = text.indexOf('\n---\n', 3);
  const closeAtEnd = close === -1 && text.endsWith('\n---') ? text.length - 4 : close;
  if (closeAtEnd === -1) {
    problems.push({ file, line: 1, message: 'the YAML front matter is not closed by a "---" line' });
    return null;
  }
  const yamlText = text.slice(4, closeAtEnd + 1);
  const before = problems.length;
  const data = asMapping(parseYaml(yamlText, file, 2, problems));
  if (data === null) {
    if (problems.length === before)
      problems.push({ file, line: 2, message: 'the front matter must be a YAML mapping (key: value lines)' });
    return null;
  }
  const src: FieldSource = { file, text: yamlText, firstLine: 2, data, problems };
  rejectUnknownKeys(src, ENTRY_FILE_KEYS);

  const date = data.date;
  let validDate = '';
  if (date === undefined) problems.push({ file, line: 1, message: 'missing required field "date"' });
  else if (typeof date !== 'string' || parseIsoDate(date) === null)
    problem(src, 'date', `"date" must be a real calendar date written YYYY-MM-DD, not ${JSON.stringify(date)}`);
  else {
    const wrong = dateProblem(config.calendar, date);
    const { start, end } = config.period;
    // A date of the diary's calendar is an address of the API as it is (Julian 1700-02-29 too).
    if (wrong !== null) problem(src, 'date', `"date" must be a real calendar date written YYYY-MM-DD: ${wrong}`);
    else if (date < start || date > end)
      problem(
        src,
        'date',
        `date ${date} is outside the diary's period (${start} to ${end}: "period" in site.yaml, or --period)`,
      );
    else validDate = date;
  }

  // An override spells a date differently (an edition's own dual year, say); it stays a date.
  let givenTitle: string | null = null;
  if (data.title !== undefined && data.title !== null) {
    if (typeof data.title !== 'string' || data.title.trim() === '')
      problem(src, 'title', '"title" must be a non-empty string when given');
    else if (hasTitleShape(data.title, titleRules(config).format)) givenTitle = data.title;
    else {
      const example = entryTitle(validDate === '' ? config.period.start : validDate, titleRules(config));
      problem(
        src,
        'title',
        `"title" must keep the shape of the titles in the site's locale (e.g. "${example}"), not ${JSON.stringify(data.title)}`,
      );
    }
  }

  // Lines counted in the whole file: the body starts after the front matter's closing line.
  const bodyLine = lineAt(text, closeAtEnd + 5);
  const written = text.slice(closeAtEnd + 5);
  // The HTML and the footnotes: what the feeds and the downloads carry (characters.ts).
  refuseCharacters(written, file, bodyLine, problems);
  // Links to topics' pages in their old form become the template's, as the reference rewrites them.
  const origins = [config.siteOrigin, ...config.linkOrigins];
  const body = rewriteOldTopicLinks(written, origins, config.webURLs.topic);
  const marker =
    body.startsWith(`${FOOTNOTES_MARKER}\n`) || body === FOOTNOTES_MARKER ? 0 : body.indexOf(`\n${FOOTNOTES_MARKER}`);
  const entryHTML = marker === -1 ? body : body.slice(0, marker);
  const footnotesHTML = marker === -1 ? '' : body.slice(marker + FOOTNOTES_MARKER.length + (marker === 0 ? 0 : 1));

  const entry: Omit<Entry, 'title'> = {
    date: validDate,
    entryHTML: entryHTML.trim(),
    footnotesHTML: footnotesHTML.trim(),
    // The rest as the file gives them (record-fields.ts ENTRY).
    ...readFields(src, ENTRY, config.lastModifiedTime),
  };
  if (validDate === '') return null;
  // A rewritten link keeps its line: the rewriting changes no line break.
  const links = topicLinks(body, origins, config.webURLs.topic).map(({ id, at }) => ({
    id,
    line: bodyLine + lineAt(body, at) - 1,
  }));
  return { file, dateLine: lineOf(src, 'date'), topicsLine: lineOf(src, 'topics'), givenTitle, links, entry };
}
