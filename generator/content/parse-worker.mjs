// Boots a parse worker. Worker threads do not inherit tsx's module hooks under Node 20, so this
// plain module registers them before loading the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
