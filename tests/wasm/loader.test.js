// The wasm module under Node, through the same loader the page uses.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseBuild, loadSmfem } from '../../wasm/js/loader.js';
import { syntheticAsset } from '../../wasm/js/synthetic_asset.js';

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
      // More threads than the pool has never started: the call hung (5), or aborted the module.
      for (const count of [0, 2.5, NaN, 1e7]) {
        expect(() => smfem.distinctWorkerThreads(count)).toThrow(
          /distinctWorkerThreads: count .* is not a whole number in \[1, /,
        );
      }
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

  describe('what the page draws of an asset (pageAsset: the C++ reader, no JS one)', () => {
    let smfem;
    afterAll(() => smfem?.dispose());
    const beam = readFileSync(
      fileURLToPath(new URL('../../build/native/assets/beam.smfem', import.meta.url)),
    );

    it('hands over the render surface, the cubature markers and the metadata as the sections hold them', async () => {
      smfem = await loadSmfem();
      const page = smfem.pageAsset(beam, 'beam.smfem');
      const contents = smfem.inspectAsset(beam, 'beam.smfem');
      const shape = (name) => contents.sections.find((s) => s.name === name).shape;
      const [nv, m] = shape('render.weights');
      expect(page.meta).toEqual(contents.meta);
      expect(page.surface.vertexCount).toBe(nv);
      expect(page.surface.modeCount).toBe(m);
      expect(page.surface.triangleCount).toBe(shape('render.triangles')[0]);
      expect(page.surface.positions).toBeInstanceOf(Float32Array);
      expect(page.surface.positions).toHaveLength(3 * nv);
      expect(page.surface.weights).toHaveLength(nv * m);
      expect(page.surface.triangles).toBeInstanceOf(Uint32Array);
      expect(Math.max(...page.surface.triangles)).toBeLessThan(nv);
      // Bytes as stored: the first position is the section's first three f32.
      const at = contents.sections.find((s) => s.name === 'render.positions').offset;
      expect([...page.surface.positions.subarray(0, 3)]).toEqual([
        ...new Float32Array(beam.buffer.slice(beam.byteOffset + at, beam.byteOffset + at + 12)),
      ]);
      const [count, markerModes] = shape('cubature.centroid_weights');
      expect(page.markers.count).toBe(count);
      expect(page.markers.modeCount).toBe(markerModes);
      expect(page.markers.centroids).toHaveLength(3 * count);
    });

    it('refuses a corrupt asset by file, section and problem, and one without a render surface', () => {
      const bytes = Uint8Array.from(beam);
      const weights = smfem.inspectAsset(bytes).sections.find((s) => s.name === 'render.weights');
      bytes[weights.offset + 5] ^= 0x10;
      expect(() => smfem.pageAsset(bytes, 'beam.smfem')).toThrow(/beam\.smfem.*render\.weights.*checksum/);
      expect(() => smfem.pageAsset(syntheticAsset(2, 4), 'box.smfem')).toThrow(
        /box\.smfem.*render\.triangles.*missing/,
      );
    });
  });

  it("keeps the tools out of the page's module, and loads them on request", async () => {
    const page = await loadSmfem({ build: 'threads' });
    const tools = await loadSmfem({ build: 'threads', tools: true });
    try {
      const bytes = syntheticAsset(2, 4);
      expect(() => page.evaluateClaims(bytes)).toThrow(/evaluateClaims is in the tools module/);
      expect(() => page.createDisplacementSimulator(bytes)).toThrow(
        /DisplacementSimulator is in the tools module/,
      );
      expect(() => tools.createDisplacementSimulator(bytes)).toThrow(/comparison-basis/);
      expect(tools.version).toBe(page.version);
    } finally {
      page.dispose();
      tools.dispose();
    }
  });

  it('refuses an unknown build name, and the tools single-threaded', async () => {
    await expect(loadSmfem({ build: 'gpu' })).rejects.toThrow(/unknown build 'gpu'/);
    await expect(loadSmfem({ build: 'single', tools: true })).rejects.toThrow(/built threaded only/);
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

  // Emscripten's default handlers took over every later error of the script: status 7 and the
  // module's whole minified source (120 KB) on stderr.
  it.each(['threads', 'single'])(
    "leaves a script's own uncaught errors to Node (%s build, the bake's module too)",
    (build) => {
      const bakePath = fileURLToPath(new URL('../../precompute/js/bake.js', import.meta.url));
      for (const fail of ['throw new Error("mine")', 'Promise.reject(new Error("mine"))']) {
        const script = `import { loadSmfem } from ${JSON.stringify(loaderPath)};
          import { loadBake } from ${JSON.stringify(bakePath)};
          await loadSmfem({ build: '${build}' });
          await loadBake({ build: '${build}' });
          ${fail};`;
        const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
          encoding: 'utf8',
          timeout: 20000,
        });
        expect(child.status, fail).toBe(1);
        expect(child.stderr).toMatch(/Error: mine/);
        expect(child.stderr.length, fail).toBeLessThan(2000);
      }
    },
  );
});
