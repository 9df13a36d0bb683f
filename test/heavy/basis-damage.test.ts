// A rebuild over every kind of saved basis that cannot be vouched for (missing, changed,
// oversized, of another generator): test/basis.test.ts runs two of them every day; the other two
// moved here (four builds a case).

import { describe, it } from 'vitest';
import { BASIS_DAMAGES, checkBasisDamage } from '../helpers/basis-damage.ts';
import { ColdBuilds } from '../helpers/edit-sequences.ts';

const colds = new ColdBuilds();

describe('a basis that cannot be vouched for', () => {
  for (const [what] of BASIS_DAMAGES)
    it(`a rebuild over a basis ${what} renders every file, as a cold build, and saves its own`, () =>
      checkBasisDamage(colds, what));
});
