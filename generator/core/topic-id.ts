// A topic id as the API reads one, in a path (`/api/v1/topics/007`) and in a filter
// (`?topic=007`) alike: one rule, so that the two never disagree on a spelling.

const DIGITS = /^[0-9]+$/;

/**
 * The canonical spelling of a topic id written `text`: its digits without leading zeros (as
 * Django's int converter reads `007` as 7, whatever the number of zeros), or null when `text` is
 * not digits. A canonical key may still name no topic (or be past any id a topic can have).
 */
export function topicKey(text: string): string | null {
  if (!DIGITS.test(text)) return null;
  return text.replace(/^0+(?=\d)/, '');
}

/** The id a canonical key names, or null when no topic can have it (not a safe integer). */
export function topicIdOfKey(key: string): number | null {
  // Past 16 digits, not a safe integer; checked before Number() reads a long string.
  if (key.length > 16) return null;
  const id = Number(key);
  return Number.isSafeInteger(id) ? id : null;
}
