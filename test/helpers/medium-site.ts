// A medium content directory, generated: enough entries and topics that every list has several
// pages, small enough to build in well under a second.

import { entryFile, smallSite } from './content.ts';

export function mediumSite(entries = 400, topics = 300): Record<string, string> {
  const files: Record<string, string> = { ...smallSite() };
  files['site.yaml'] = 'apiOrigin: https://api.test\nsiteOrigin: https://site.test\npageSize: 20\n';
  for (let id = 3; id <= topics; id++) {
    const category = ['people', 'household', 'servants'][id % 3];
    files[`topics/${id}.yaml`] =
      `id: ${id}\ntitle: Topic ${id}\nkind: ${id % 2 === 0 ? 'person' : 'default'}\ncategories: [${category}]\n`;
  }
  const day0 = Date.UTC(1660, 1, 1);
  for (let i = 0; i < entries; i++) {
    const date = new Date(day0 + i * 3 * 86_400_000).toISOString().slice(0, 10);
    const ids = [1 + (i % topics), 1 + ((i * 7) % topics)]
      .filter((v, k, a) => a.indexOf(v) === k)
      .sort((a, b) => a - b);
    files[`entries/${date.slice(0, 4)}/${date}.html`] = entryFile(
      date,
      `topics: [${ids.join(', ')}]\n`,
      `<p>Entry ${i}.</p>\n<!-- footnotes -->\n<p>Note ${i}.</p>`,
    );
  }
  return files;
}
