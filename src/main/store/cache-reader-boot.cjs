// Starts the cache reader's worker from source (tests, browser mode under tsx): registers tsx's
// CommonJS loader in this thread, then loads cache-reader-worker.ts. The built app runs the bundled
// campaign-cache-reader.js instead and never loads this file.
'use strict';
require('tsx/cjs');
require('./cache-reader-worker.ts');
