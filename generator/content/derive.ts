// What the reference service derives from content instead of having authors repeat it (issue 17):
// the topics an entry mentions by linking to their pages, a topic's kind from the categories it
// belongs to, and a person's sorting title from the name. What a file states itself always wins.

import type { Category } from '../core/model.ts';
import type { TopicKind } from '../core/record-fields.ts';
import { DEFAULT_WEB_URLS } from '../core/urls.ts';

/**
 * The ids of the topics an HTML text links to, with the offset of each link: the path of the topic
 * template (`/encyclopedia/{id}/` by default) on one of `origins` or on none (a relative link).
 * An origin is matched as the reference service matches pepysdiary.com: by http or https (or
 * none: `//host/`), with or without `www.`.
 */
export function topicLinks(
  html: string,
  origins: readonly string[],
  topicTemplate: string = DEFAULT_WEB_URLS.topic,
): Array<{ id: number; at: number }> {
  const links = patternsFor(origins, topicTemplate).links;
  const found: Array<{ id: number; at: number }> = [];
  for (const m of html.matchAll(links)) found.push({ id: Number(m[2]), at: m.index });
  return found;
}

/**
 * The text with each link to a topic's page in its old form, `<origin>/p/<id>.php` on one of
 * `origins` (matched as topicLinks matches them), rewritten to the topic template's path on the
 * same origin as written (`http://pepysdiary.com/p/12.php` → `http://pepysdiary.com/encyclopedia/12/`),
 * as the reference service rewrites them. Every other byte is kept; a text without one is
 * returned as it is.
 */
export function rewriteOldTopicLinks(
  html: string,
  origins: readonly string[],
  topicTemplate: string = DEFAULT_WEB_URLS.topic,
): string {
  if (!html.includes('/p/')) return html;
  const { old, path } = patternsFor(origins, topicTemplate);
  return html.replace(
    old,
    (_, before: string, _quote: string, id: string, after: string) => `${before}${path(id)}${after}`,
  );
}

interface Patterns {
  /** A link to a topic's page: group 2 is its id. */
  links: RegExp;
  /** A link in the old form: groups 1 and 4 are what comes before and after its path, 3 the id. */
  old: RegExp;
  /** The template's path for an id. */
  path: (id: string) => string;
}

// Made once for a site, not for each of its entries (matchAll and replace work on a copy).
let lastPatterns: { key: string; patterns: Patterns } | null = null;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An origin as links write it: any scheme of the web or none, `www.` or not, its port if it has one. */
function originPattern(origin: string): string {
  const url = new URL(origin);
  const host = url.hostname.replace(/^www\./i, '');
  return `(?:https?:)?//(?:www\\.)?${escapeRegExp(host)}${url.port === '' ? '' : `:${url.port}`}`;
}

function patternsFor(origins: readonly string[], topicTemplate: string): Patterns {
  const key = `${topicTemplate} ${origins.join(' ')}`;
  if (lastPatterns?.key !== key) {
    // The template begins with {site} and names {id} once (content/config.ts); a final slash may be left out.
    const template = topicTemplate.slice('{site}'.length);
    const path = template.split('{id}').map(escapeRegExp).join('([0-9]{1,9})').replace(/\/$/, '/?');
    const on = origins.length === 0 ? '(?!)' : origins.map(originPattern).join('|');
    const end = `(?:[?#][^"']*)?\\1`;
    lastPatterns = {
      key,
      patterns: {
        links: new RegExp(`\\bhref\\s*=\\s*(["'])(?:${on})?${path}${end}`, 'gi'),
        old: new RegExp(`(\\bhref\\s*=\\s*(["'])(?:${on}))/p/([0-9]{1,9})\\.php((?:[?#][^"']*)?\\2)`, 'gi'),
        path: (id) => template.replace('{id}', id),
      },
    };
  }
  return lastPatterns.patterns;
}

/**
 * The slugs whose topics are of each kind: the categories site.yaml names for it and every
 * category below them. A category named for both kinds counts as the first (person).
 */
export function kindsByCategory(
  categories: readonly Pick<Category, 'slug' | 'parent'>[],
  kinds: Readonly<Partial<Record<Exclude<TopicKind, 'default'>, readonly string[]>>>,
): Map<string, Exclude<TopicKind, 'default'>> {
  const parentOf = new Map(categories.map((c) => [c.slug, c.parent]));
  const out = new Map<string, Exclude<TopicKind, 'default'>>();
  for (const c of categories) {
    // The nearest named category up the tree (bounded: the tree was checked, but may have a cycle).
    for (let slug: string | null = c.slug, steps = 0; slug !== null && steps <= categories.length; steps++) {
      const kind = (['person', 'place'] as const).find((k) => kinds[k]?.includes(slug as string));
      if (kind !== undefined) {
        out.set(c.slug, kind);
        break;
      }
      slug = parentOf.get(slug) ?? null;
    }
  }
  return out;
}

/** The kind a topic without a `kind` of its own takes from its categories (the first that has one). */
export function derivedKind(categorySlugs: readonly string[], byCategory: ReadonlyMap<string, TopicKind>): TopicKind {
  for (const slug of categorySlugs) {
    const kind = byCategory.get(slug);
    if (kind !== undefined) return kind;
  }
  return 'default';
}

const ROMAN = /^[IVXLCDM]+$/;

/**
 * A person's sorting title, surname first, as the reference derives it: "Mr Bob Ferris" →
 * "Ferris, Mr Bob", "Peter de la Roche" → "Roche, Peter de la", "Monsieur d'Esquier" →
 * "Esquier, Monsieur d'"; a remark in parentheses stays at the end. Left as it is: one word, a
 * name with a comma already, a regnal number ("Philip IV") or an epithet ("Ivan the Terrible").
 */
export function personOrderTitle(title: string): string {
  const open = title.indexOf(' (');
  const name = open === -1 ? title : title.slice(0, open);
  const remark = open === -1 ? '' : title.slice(open);
  const words = name.split(' ').filter((w) => w !== '');
  if (words.length < 2 || name.includes(',') || words.some((w) => ROMAN.test(w) || w === 'the')) return title;
  const last = words.at(-1) as string;
  // A particle joined to the surname (d'Esquier, al-Ghailan) stays with the given names.
  const joined = /^(d'|d’|al-|el-)(.+)$/i.exec(last);
  const surname = joined === null ? last : (joined[2] as string);
  const rest = [...words.slice(0, -1), ...(joined === null ? [] : [joined[1] as string])].join(' ');
  return `${surname}, ${rest}${remark}`;
}
