// Worker threads do not inherit tsx's loader for their entry file; register it, then run the worker.
import { register } from 'tsx/esm/api';

register();
await import('./cache-worker.ts');
