import { afterAll } from 'vitest';
import { removeMadeDataDirs } from '../support/runtime-process';

// Set up before each e2e file: its after-all hooks run before this one, so its runtimes are stopped by then.
afterAll(removeMadeDataDirs);
