// The wasm module under Node, through the same loader the page uses.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseBuild, loadSmfem } from '../../wasm/js/loader.js';

const assetTool = fileURLToPath(new URL('../../build/bin/smfem-asset', import.meta.url));
const loaderPath = fileURLToPath(new URL('../../wasm/js/loader.js', import.meta.url));

function exampleAsset() {
  const file = join(mkdtempSync(join(tmpdir(), 'smfem-loader-')), 'example.smfem');
  execFileSync(assetTool, ['example', file]);
  return readFileSync(file);
}

describe('loader under Node', () => {
  it('chooses the threaded build under Node', () => {
    expect(chooseBuild()).toBe('threads');
  });

  describe.each([
    ['threads', 2],
    ['single', 1],
  ])('%s build', (build, expectedThreads) => {
    let smfem;
    afterAll(() => smfem?.dispose());

    it('loads and reports its flavour and version', async () => {
      smfem = await loadSmfem({ build });
      expect(smfem.build).toBe(build);
      expect(smfem.version).toMatch(/^\d+\.\d+\.\d+$/);
    });

    it(`runs work on ${expectedThreads} distinct thread(s)`, () => {
      expect(smfem.distinctWorkerThreads(2)).toBe(expectedThreads);
    });

    it('validates an asset with the C++ reader', () => {
      const bytes = exampleAsset();
      const contents = smfem.inspectAsset(bytes, 'example.smfem');
      expect(contents.meta.format).toBe('smfem-asset');
      expect(contents.sections.map((s) => s.name)).toContain('render.positions');
    });

    it('turns a reader error into a JS Error naming the file, section and problem', () => {
      const bytes = exampleAsset();
      const contents = smfem.inspectAsset(bytes, 'example.smfem');
      const positions = contents.sections.find((s) => s.name === 'render.positions');
      bytes[positions.offset] ^= 0x40;
      expect(() => smfem.inspectAsset(bytes, 'broken.smfem')).toThrow(
        /broken\.smfem.*render\.positions.*checksum/,
      );
    });
  });

  it('refuses an unknown build name', async () => {
    await expect(loadSmfem({ build: 'gpu' })).rejects.toThrow(/unknown build 'gpu'/);
  });

  it('never keeps Node alive once the caller is done (threaded build, no dispose)', () => {
    const script = `import { loadSmfem } from ${JSON.stringify(loaderPath)};
      const smfem = await loadSmfem({ build: 'threads' });
      console.log(smfem.build, smfem.distinctWorkerThreads(2));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20000,
    });
    expect(child.error).toBeUndefined();
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('threads 2');
    expect(child.status).toBe(0);
  });
});
