// A model rendered in memory, as the handler reads a built site: every file's bytes by its path,
// and the site index parsed from them.

import { SITE_INDEX_FILE } from '../../generator/core/files.ts';
import type { Model } from '../../generator/core/model.ts';
import { parseSiteIndex, type SiteIndex } from '../../generator/core/site-index.ts';
import { type RenderOptions, renderSite } from '../../generator/render/render-site.ts';

export function renderedSite(
  model: Model,
  options: RenderOptions = {},
): { files: Map<string, Uint8Array>; site: SiteIndex } {
  const encoder = new TextEncoder();
  const files = new Map(
    renderSite(model, undefined, options).map((f) => [
      f.path,
      typeof f.body === 'string' ? encoder.encode(f.body) : f.body,
    ]),
  );
  const loaded = parseSiteIndex(new TextDecoder().decode(files.get(SITE_INDEX_FILE)));
  if (!loaded.ok) throw new Error(loaded.error);
  return { files, site: loaded.value };
}
