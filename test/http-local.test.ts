// The contract end to end against the local server on loopback, serving the embedded sample; and
// what only the local server can show: the JSON it sends is the built file, byte for byte, to
// every client that does not prefer HTML.

import { expect, it } from 'vitest';
import {
  BROWSER_ACCEPT,
  CARNET_CONTENT,
  CARNET_CONTRACT_SITE,
  defineContractTests,
  JSON_ACCEPTS,
} from './contract/suite.ts';
import { readServed } from './helpers/files.ts';
import { type LocalSite, sampleSite, startLocalSite } from './helpers/local-server.ts';

let site: LocalSite | null = null;

defineContractTests('local server, sample content', {
  start: async () => {
    site = sampleSite();
    return { origin: site.origin };
  },
  stop: async () => {
    await site?.stop();
  },
  randomRanges: 400,
  extra: (get) => {
    it('sends the built file itself, byte for byte, to every Accept but a browser’s', async () => {
      const files: Array<[string, string]> = [
        ['/api/v1', 'api/v1/index.json'],
        ['/api/v1/entries?page=2', 'api/v1/entries/pages/2.json'],
        ['/api/v1/entries?start=1661-01-01&end=1661-12-31', 'api/v1/entries/years/1661/pages/1.json'],
        ['/api/v1/entries/1660-01-01', 'api/v1/entries/1660-01-01.json'],
        ['/api/v1/topics/1.json', 'api/v1/topics/1.json'],
        ['/api/v1/schema', 'api/v1/schema.json'],
      ];
      for (const [path, file] of files) {
        const bytes = Buffer.from(readServed(site?.publicDir as string, file) as string);
        for (const accept of JSON_ACCEPTS) {
          if (accept === null) continue; // fetch always sends one; the suite checks none over raw HTTP
          const res = await get(path, { headers: { accept } });
          expect(
            Buffer.from(await res.arrayBuffer()).equals(bytes),
            `${path} with Accept ${JSON.stringify(accept)}`,
          ).toBe(true);
        }
        const html = await get(path, { headers: { accept: BROWSER_ACCEPT } });
        const expected = path.endsWith('.json') ? 'application/json' : 'text/html; charset=utf-8';
        expect(html.headers.get('content-type'), path).toBe(expected);
        await html.arrayBuffer();
      }
    });
  },
});

// The second sample: another period, the Gregorian calendar, French titles, 10 a page, its own
// webURLs and topics mentioned by links (examples/carnet-1914).
let carnet: LocalSite | null = null;

defineContractTests('local server, the second sample (Gregorian, French)', {
  start: async () => {
    carnet = await startLocalSite(CARNET_CONTENT);
    return { origin: carnet.origin };
  },
  stop: async () => {
    await carnet?.stop();
  },
  randomRanges: 200,
  site: CARNET_CONTRACT_SITE,
});
