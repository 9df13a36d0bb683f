// Command-line options shared by the build and start commands.

import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { ConfigOverrides } from '../content/config.ts';
import { parseConvention, parseOrigin } from '../content/config.ts';
import { fail } from './exit.ts';

export const CONFIG_OPTIONS = {
  content: { type: 'string', default: 'content' },
  out: { type: 'string', default: 'public' },
  'api-origin': { type: 'string' },
  'site-origin': { type: 'string' },
  'page-size': { type: 'string' },
  'title-convention': { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

export const CONFIG_HELP = `  --content <dir>            content directory (default: content)
  --out <dir>                output directory (default: public)
  --api-origin <origin>      origin of every apiURL (default: site.yaml, or $URL on Netlify)
  --site-origin <origin>     origin of every webURL (default: site.yaml)
  --page-size <n>            records per list page (default: site.yaml, 50)
  --title-convention <name>  seed | every-year (default: site.yaml, seed)
  --quiet                    no progress output`;

// `fail` (print `error: …`, exit 2) lives with the rest of the tools' error handling in exit.ts.
export { fail };

export function configOverrides(values: {
  'api-origin'?: string | undefined;
  'site-origin'?: string | undefined;
  'page-size'?: string | undefined;
  'title-convention'?: string | undefined;
}): ConfigOverrides {
  const o: ConfigOverrides = {};
  for (const [flag, key] of [
    ['api-origin', 'apiOrigin'],
    ['site-origin', 'siteOrigin'],
  ] as const) {
    const v = values[flag];
    if (v === undefined) continue;
    const origin = parseOrigin(v);
    if (origin instanceof Error) fail(`--${flag}: ${origin.message}`);
    o[key] = origin;
  }
  if (values['page-size'] !== undefined) {
    const n = Number(values['page-size']);
    if (!Number.isSafeInteger(n) || n < 1)
      fail(`--page-size must be a positive whole number, not ${values['page-size']}`);
    o.pageSize = n;
  }
  if (values['title-convention'] !== undefined) {
    const c = parseConvention(values['title-convention']);
    if (c instanceof Error) fail(`--title-convention: ${c.message}`);
    o.titleConvention = c;
  }
  return o;
}

export function parseOrExit<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    fail((err as Error).message);
  }
}
