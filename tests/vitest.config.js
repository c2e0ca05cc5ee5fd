// Vitest: the wasm module under Node (tests/wasm), the page's own modules under Node
// (tests/web) and the page in headless Chromium (tests/browser, against the production build
// in dist/).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['tests/wasm/**/*.test.js', 'tests/web/**/*.test.js', 'tests/browser/**/*.test.js'],
    testTimeout: 60000,
    hookTimeout: 60000,
    // Browser tests share one Chromium per file; files run one at a time on 2 cores.
    fileParallelism: false,
  },
});
