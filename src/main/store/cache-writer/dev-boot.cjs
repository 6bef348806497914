// Starts the cache writer's worker from source (tests, browser mode under tsx): registers tsx's
// CommonJS loader in this thread, then loads worker.ts. The built app runs the bundled
// campaign-cache-worker.js instead and never loads this file.
'use strict';
require('tsx/cjs');
require('./worker.ts');
