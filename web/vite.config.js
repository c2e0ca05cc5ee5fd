// Vite serves web/ in development (npm start) and builds it into dist/ (npm run build).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// Cross-origin isolation lets the page use SharedArrayBuffer, hence the threaded build.
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  server: {
    port: Number(process.env.PORT || 5173),
    strictPort: true,
    headers: isolationHeaders,
    // The page imports the wasm module and baked assets from build/ beside web/.
    fs: { allow: [repoRoot] },
  },
  preview: {
    port: Number(process.env.PORT || 4173),
    strictPort: true,
    headers: isolationHeaders,
  },
  // The solver worker is an ES module (it imports the loader, which imports the module lazily).
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Baked assets and wasm binaries are copied as files, never inlined as data URLs.
    assetsInlineLimit: 0,
  },
});
