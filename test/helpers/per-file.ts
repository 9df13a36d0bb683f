// Run before each test file (setupFiles of vitest.config.ts and vitest.heavy.config.ts): what
// every file must undo when it ends, even where files share their worker's modules.

import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.ts';

afterAll(removeTempDirs);
