// Where the edition's internal links go in the API. The edition links between its own files
// (`endnotes.xhtml#note-48`, `chapter-78.xhtml#entry-1666-6-27`); the API has entries instead.
//   - a note reference becomes an in-entry anchor `#note-N` (id `noteref-N`) when the note is
//     printed in the same entry — always true for a first reference;
//   - a note's backlink becomes `#noteref-N`;
//   - a link to another note or another entry becomes the absolute web address of that entry
//     (`{site}/diary/1666/06/17/`, plus `#note-N` for a note): API bodies carry absolute URLs only,
//     and the entry's web page is the stable human-readable address of a day;
//   - a link whose target is not imported (introduction notes, unknown ids, other files) is
//     unwrapped: its text stays, the dead link goes, and the report lists it.

import { DEFAULT_WEB_URLS, entryWebURL, type WebSite } from '../core/urls.ts';
import type { XElement } from './xml.ts';
import { getAttr, removeAttr, setAttr } from './xml.ts';

export interface LinkContext {
  siteOrigin: string;
  /** Entry date of each article, by the article's id. */
  entryOfArticleId: ReadonlyMap<string, string>;
  /** Entry date where each printed note is, by note id. */
  noteHomes: ReadonlyMap<string, string>;
}

type LinkKind = 'noteref' | 'backlink' | 'note' | 'entry';

export interface LinkLog {
  rewritten: Record<LinkKind, number>;
  /** Absolute links (http:, mailto:) found and kept as they are. */
  keptAbsolute: number;
  unwrapped: { date: string; href: string; reason: string }[];
}

export function newLinkLog(): LinkLog {
  return { rewritten: { noteref: 0, backlink: 0, note: 0, entry: 0 }, keptAbsolute: 0, unwrapped: [] };
}

/**
 * The link rewriter for one entry. `seenRefs` remembers which notes this entry already referenced,
 * so that only the first reference carries the `noteref-N` id the backlink points at.
 */
/** The edition links to pepysdiary.com's pages, written as its addresses are. */
const pepysSite = (ctx: LinkContext): WebSite => ({ siteOrigin: ctx.siteOrigin, webURLs: DEFAULT_WEB_URLS });

export function entryLinkRewriter(ctx: LinkContext, date: string, log: LinkLog): (a: XElement) => 'keep' | 'unwrap' {
  const seenRefs = new Set<string>();
  const noteAddress = (noteId: string): string | null => {
    const home = ctx.noteHomes.get(noteId);
    if (home === undefined) return null;
    return home === date ? `#${noteId}` : `${entryWebURL(pepysSite(ctx), home)}#${noteId}`;
  };
  const unwrap = (href: string, reason: string): 'unwrap' => {
    log.unwrapped.push({ date, href, reason });
    return 'unwrap';
  };

  return (a) => {
    const href = getAttr(a, 'href');
    if (href === undefined) return 'keep';
    const noteref = /^endnotes\.xhtml#(note-\d+)$/.exec(href);
    if (noteref) {
      const noteId = noteref[1] as string;
      const address = noteAddress(noteId);
      if (address === null) return unwrap(href, 'reference to a note that is not printed in any entry');
      setAttr(a, 'href', address);
      if (address.startsWith('#') && !seenRefs.has(noteId)) {
        seenRefs.add(noteId);
        setAttr(a, 'id', `noteref-${noteId.slice('note-'.length)}`);
      } else {
        removeAttr(a, 'id'); // the id belongs to the first reference only
      }
      log.rewritten.noteref++;
      return 'keep';
    }
    const backlink = /^(?:chapter-\d+\.xhtml)?#noteref-(\d+)$/.exec(href);
    if (backlink) {
      if (ctx.noteHomes.get(`note-${backlink[1]}`) !== date)
        return unwrap(href, 'backlink to a reference in another entry');
      setAttr(a, 'href', `#noteref-${backlink[1]}`);
      log.rewritten.backlink++;
      return 'keep';
    }
    const note = /^(?:endnotes\.xhtml)?#(note-\d+)$/.exec(href);
    if (note) {
      const address = noteAddress(note[1] as string);
      if (address === null) return unwrap(href, 'link to a note that is not printed in any entry');
      setAttr(a, 'href', address);
      log.rewritten.note++;
      return 'keep';
    }
    const article = /^chapter-\d+\.xhtml#(.+)$/.exec(href);
    if (article) {
      const target = ctx.entryOfArticleId.get(article[1] as string);
      if (target === undefined) return unwrap(href, 'link to an article that is in no entry');
      setAttr(a, 'href', entryWebURL(pepysSite(ctx), target));
      log.rewritten.entry++;
      return 'keep';
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
      log.keptAbsolute++; // absolute (http:, mailto:): valid anywhere, kept as is
      return 'keep';
    }
    return unwrap(href, 'link into a file of the edition that the API does not have');
  };
}
