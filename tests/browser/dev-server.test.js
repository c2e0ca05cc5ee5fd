// The development server behind `npm start`: isolation headers, the wasm MIME type, and the
// port taken from PORT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'vite';

const configFile = new URL('../../web/vite.config.js', import.meta.url).pathname;

describe('dev server', () => {
  let server;
  let base;
  beforeAll(async () => {
    process.env.PORT = '5199';
    server = await createServer({ configFile, logLevel: 'silent' });
    await server.listen();
    base = server.resolvedUrls.local[0];
  });
  afterAll(async () => {
    await server?.close();
    delete process.env.PORT;
  });

  it('listens on the port given by PORT', () => {
    expect(new URL(base).port).toBe('5199');
  });

  it('sends the cross-origin isolation headers', async () => {
    const response = await fetch(base);
    expect(response.status).toBe(200);
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  });

  it('serves the wasm binaries as application/wasm', async () => {
    for (const flavour of ['threads', 'single']) {
      const root = new URL('../..', import.meta.url).pathname;
      const response = await fetch(new URL(`@fs${root}build/wasm-${flavour}/module/smfem.wasm`, base));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/wasm');
    }
  });
});
