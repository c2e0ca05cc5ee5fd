// A plain static file server for the browser tests: serves a folder (the production build)
// with or without the cross-origin isolation headers, like two kinds of static host.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.smfem': 'application/octet-stream',
};

/** Starts a server on a free loopback port; resolves to { url, close }. */
export function serveStatic(root, { isolated }) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(normalize(root) + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      // The size, as static hosts send it (the page's progress bar measures downloads by it).
      const headers = {
        'Content-Type': types[extname(file)] ?? 'application/octet-stream',
        'Content-Length': body.length,
      };
      if (isolated) {
        headers['Cross-Origin-Opener-Policy'] = 'same-origin';
        headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
      }
      response.writeHead(200, headers).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      // Closing ends the browser's open connections too: a kept-alive or half-served one must
      // not hold a test file's teardown until its hook times out.
      const close = () =>
        new Promise((done) => {
          server.close(done);
          server.closeAllConnections();
        });
      resolve({ url: `http://127.0.0.1:${port}/`, close });
    });
  });
}
