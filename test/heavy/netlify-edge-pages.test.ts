// Netlify's edge function = the local server, byte for byte, at 7 records a page (many pages):
// 600 random requests over a build of the sample of its own. Moved from test/netlify-edge.test.ts,
// which keeps the same at the sample's page size over the run's shared build.

import { edgeEqualsLocalServer } from '../edge/netlify-identity.ts';

edgeEqualsLocalServer(7, 600);
