// The page's globals: `window.desk` as the preload declares it (present in Electron only).
// A path reference because TypeScript drops src/preload/index.d.ts from the program in favour of
// the index.ts beside it; an import would resolve to that .ts instead.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../preload/index.d.ts" />
