// Packs (core/packs.ts) damaged the ways a careless copy, a bad disk or a hand edit damages them:
// two rows of the table of contents at the same bytes (overlapping, swapped, duplicated keys), a
// byte of a body changed, a row's length zero or one short. The everyday tests (pack-damage.test.ts)
// and the heavy fault suite (heavy/pack-damage.test.ts) damage packs with these.

export const PACK_DAMAGES = [
  'overlap',
  'swapped keys',
  'duplicated key',
  'flipped byte',
  'zero length',
  'short length',
] as const;
export type PackDamage = (typeof PACK_DAMAGES)[number];

type Row = [key: string, offset: number, length: number, ...rest: unknown[]];

const encoder = new TextEncoder();

/**
 * `bytes`, a pack of two records or more, damaged as `kind` says, and the key that a reader now
 * gets wrong bytes for if it trusts the table: another record's body, a changed or cut body.
 */
export function damagePack(bytes: Uint8Array, kind: PackDamage): { bytes: Uint8Array; victim: string } {
  const end = bytes.indexOf(0x0a);
  const rows = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))) as Row[];
  const [first, second] = rows;
  if (first === undefined || second === undefined) throw new Error('a pack of two records or more is needed');
  let body = bytes.subarray(end + 1);
  let victim = first[0];
  switch (kind) {
    case 'overlap':
      // The second row at the first one's bytes: its key answers with the first record.
      second[1] = first[1];
      second[2] = first[2];
      victim = second[0];
      break;
    case 'swapped keys':
      [first[0], second[0]] = [second[0], first[0]];
      break;
    case 'duplicated key':
      // The first key twice: a reader that keeps the last row answers it with the second record.
      second[0] = first[0];
      break;
    case 'flipped byte': {
      body = body.slice();
      const at = first[1] + Math.floor(first[2] / 2);
      body[at] = (body[at] as number) ^ 0x01;
      break;
    }
    case 'zero length':
      first[2] = 0;
      break;
    case 'short length':
      first[2] -= 1;
      break;
  }
  const table = encoder.encode(`${JSON.stringify(rows)}\n`);
  const out = new Uint8Array(table.length + body.length);
  out.set(table);
  out.set(body, table.length);
  return { bytes: out, victim };
}
