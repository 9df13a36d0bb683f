// Every damage of what a one-shot rebuild trusts (test/helpers/rebuild-trust.ts), but the four
// test/rebuild-trust.test.ts runs every day: moved here from it, five builds a case.

import { describe, it } from 'vitest';
import { ColdBuilds } from '../helpers/edit-sequences.ts';
import { checkDamage, DAMAGES, EVERYDAY } from '../helpers/rebuild-trust.ts';

const colds = new ColdBuilds();

describe('what a rebuild trusts, damaged in every other way: the build is still right', () => {
  for (const [what, damage] of DAMAGES.filter(([what]) => !EVERYDAY.includes(what)))
    it(`${what}`, () => checkDamage(colds, what, damage));
});
