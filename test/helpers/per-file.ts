// Run before each test file (setupFiles of vitest.config.ts and vitest.heavy.config.ts): what
// every file must undo when it ends, even where files share their worker's modules; and sql.js
// started on the test's thread, which the downloads made there need (render/downloads.ts
// sqlOnThisThread: a build never starts it on its main thread), once a worker; and byte arrays
// compared at once by toEqual (bytes-equality.ts), once a worker.

import { afterAll } from 'vitest';
import { sqlOnThisThread } from '../../generator/render/downloads.ts';
import { addBytesEquality } from './bytes-equality.ts';
import { removeTempDirs } from './temp.ts';

await sqlOnThisThread();
addBytesEquality();

afterAll(removeTempDirs);
