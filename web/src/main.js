// The page: loads the wasm module (threaded where the page is cross-origin isolated) and a
// baked asset, validates the asset with the C++ reader inside the module, reads its render
// surface with the JS reader and draws it.
import { loadSmfem } from '../../wasm/js/loader.js';
import { readAsset, readRenderSurface } from '../../wasm/js/asset.js';
import { SurfaceView } from './SurfaceView.js';

const assetUrl = new URL('../../build/native/assets/example.smfem', import.meta.url);

// Read-only status for people and for automation (tests poll it).
const status = { ready: false, scene: 'example', build: null, frame: 0, lastError: null };
window.smfem = { get status() { return { ...status }; } };

const statusLine = document.getElementById('status');
const progress = document.getElementById('progress');
const facts = document.getElementById('facts');

function showFact(term, value) {
  const dt = document.createElement('dt');
  const dd = document.createElement('dd');
  dt.textContent = term;
  dd.textContent = value;
  facts.append(dt, dd);
}

function fail(error) {
  status.lastError = String(error?.message ?? error);
  statusLine.textContent = status.lastError;
  statusLine.classList.add('error');
  console.error(error);
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function start() {
  if (!document.createElement('canvas').getContext('webgl2')) {
    throw new Error('This page needs WebGL2, which this browser does not offer.');
  }
  const view = new SurfaceView(document.getElementById('view'));
  const [smfem, bytes] = await Promise.all([
    loadSmfem({ onProgress: (loaded, total) => (progress.value = total ? loaded / total : 0) }),
    fetchBytes(assetUrl),
  ]);
  status.build = smfem.build;
  const name = assetUrl.pathname.split('/').pop();
  const contents = smfem.inspectAsset(bytes, name);
  const surface = readRenderSurface(readAsset(bytes, name));
  view.setSurface(surface.positions, surface.triangles);

  progress.hidden = true;
  statusLine.textContent = 'Ready.';
  showFact('build', `${smfem.build} (module ${smfem.version})`);
  showFact('threads', String(smfem.distinctWorkerThreads(2)));
  showFact('asset', `${name}, ${contents.sections.length} sections`);
  showFact('surface', `${surface.vertexCount} vertices, ${surface.triangleCount} triangles`);
  status.ready = true;

  const loop = () => {
    view.render();
    status.frame += 1;
    requestAnimationFrame(loop);
  };
  loop();
}

start().catch(fail);
