import 'reflect-metadata';
import { afterAll } from 'vitest';
import { closeLeftoverApps } from './app.js';

// Registered before the file's own hooks, so it runs after them: whatever the file did not close is closed here.
afterAll(closeLeftoverApps);
