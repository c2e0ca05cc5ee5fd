// The synthetic box (wasm/src/smfem/sim/fixtures/box_model.hpp: m modes, C cubature tets, soft
// and stiff halves) as asset bytes, written by the native bench tool: the fixture of the
// benchmarks and tests under Node, kept out of the page's module. Needs the native build
// (scripts/setup.sh --all).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { nativeTool } from './native_tools.js';

/** The box with `modes` modes and `cubature` cubature tets; with eigenFit s, a fit of s modes. */
export function syntheticAsset(modes, cubature, { eigenFit = 0 } = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'smfem-synthetic-'));
  try {
    const file = join(folder, 'box.smfem');
    const fit = eigenFit ? ['--eigenfit', String(eigenFit)] : [];
    try {
      execFileSync(
        nativeTool('smfem-bench'),
        ['--synthetic', String(modes), String(cubature), ...fit, '--write-asset', file],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
    } catch (error) {
      // The tool's own words (an m or C out of range, say), once, without "Command failed: ...".
      throw new Error(error.stderr?.toString().trim() || error.message);
    }
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
