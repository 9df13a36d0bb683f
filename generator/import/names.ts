// The names the edition marks (a play, a ship, a book…) as text, and the key that groups
// spellings of one name. The key is a normalisation only: spellings that differ beyond it are
// merged by the hand-reviewed alias list (aliases.ts), never by resemblance.

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Raw XHTML text (entities as written) as the characters it stands for. */
function decodeEntities(raw: string): string {
  return raw.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}

/** Zero-width and invisible characters the edition uses to bind or break text (U+2060 around dashes). */
const INVISIBLE = /[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g;

/** A name as it is shown: its characters (text of nested markup kept whole), invisibles gone, spaces single. */
export function displayName(rawText: string): string {
  return decodeEntities(rawText).normalize('NFC').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

/** Letters no Unicode decomposition splits, spelled as the title would be in plain Latin. */
const LIGATURES: Readonly<Record<string, string>> = { æ: 'ae', œ: 'oe', ß: 'ss', ø: 'o', ł: 'l' };

/**
 * The key of a name: compatibility forms (NFKC), invisibles gone, lower case, accents and
 * ligatures undone, apostrophes dropped (Beggar’s / Beggars’), every other run of punctuation
 * or space one space, and a leading "the" dropped. "The Coffee-House" and "Coffee House" share
 * a key; "Mackbeth" and "Macbeth" do not (that takes an alias).
 */
export function normaliseName(text: string): string {
  return decodeEntities(text)
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[æœßøł]/g, (c) => LIGATURES[c] ?? c)
    .replace(/['’ʼ‘]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the /, '');
}

/** A name with nothing of its own to say (“The ⸻”, a dash for a title Pepys did not write). */
export function isPlaceholder(display: string): boolean {
  const key = normaliseName(display);
  return key === '' || key === 'the';
}

/** The title without its leading article, for sorting: “The Tempest” → “Tempest”. */
export function withoutArticle(title: string): string {
  const rest = /^(?:the|a|an)\s+(.+)$/i.exec(title)?.[1];
  return rest === undefined ? title : rest.charAt(0).toUpperCase() + rest.slice(1);
}
