// Colour on a terminal, plain text anywhere else: in a pipe, a file, a CI log, with NO_COLOR set
// (https://no-color.org) or TERM=dumb. FORCE_COLOR forces it either way. picocolors does the
// escape codes; this module only decides, once, for standard error (where the tools talk).

import { createColors } from 'picocolors';

type Colours = ReturnType<typeof createColors>;

/** Whether to colour what goes to `stream`. */
export function colourOn(
  stream: { isTTY?: boolean } = process.stderr,
  env: Record<string, string | undefined> = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** The colours of standard error. */
export const stderrColours: Colours = createColors(colourOn());
