// The contract end to end against the local server on loopback, serving the embedded sample.

import { join } from 'node:path';
import { defineContractTests } from './contract/suite.ts';
import { type LocalSite, startLocalSite } from './helpers/local-server.ts';

let site: LocalSite | null = null;

defineContractTests('local server, sample content', {
  start: async () => {
    site = await startLocalSite(join(import.meta.dirname, '..', 'content'));
    return { origin: site.origin };
  },
  stop: async () => {
    await site?.stop();
  },
  randomRanges: 400,
});
