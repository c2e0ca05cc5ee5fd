// The page's handle on the bake worker (bake.worker.js): bakes a user's files and says how far it
// got, stage by stage, from smfem-bake's own progress lines. One bake at a time; cancel() ends
// the worker wherever it is (a new one starts with the next bake).

// The largest mesh the page bakes: about 0.8 GB of the module's 2 GB at the 1.6 kB per tet the
// bake's heap grows by (104,614 tets: 159 MB; docs/performance.md, "The bake in WebAssembly").
// Larger ones are refused once read, before the costly stages; the native tool takes them.
const kMaxTets = 500000;
// And the largest surface: its triangles become the render surface, whose weights the bake
// computes and the page draws (docs/performance.md, "A million triangles"). Above it, a notice
// asks for a simplified surface (the native tool takes it).
const kMaxTriangles = 1000000;
// The most bytes of files a bake takes, checked before any is read (they are copied into the
// module's memory): a million triangles are a 50 MB binary STL, about 70 MB of OBJ.
const kMaxBytes = 256 * 2 ** 20;

const meshExtensions = ['.ele', '.node', '.mesh', '.msh', '.obj', '.stl', '.off', '.ply'];
const tetExtensions = ['.ele', '.node', '.mesh', '.msh'];
const extension = (name) => name.slice(name.lastIndexOf('.')).toLowerCase();
const isGltf = (name) => ['.gltf', '.glb'].includes(extension(name));
// The name the bake reads a file by: for a glTF scene, the STL of its triangles, which the worker
// writes first (gltfSurface.js).
const bakedName = (name) => (isGltf(name) ? `${name.slice(0, name.lastIndexOf('.'))}.stl` : name);

/** The files' input: a recipe (.json) if there is one, else the first mesh the bake reads. */
export function bakeInput(names) {
  const recipe = names.find((name) => extension(name) === '.json');
  if (recipe) return recipe;
  for (const wanted of meshExtensions) {
    const found = names.find((name) => extension(name) === wanted);
    if (found) return found;
  }
  throw new Error(
    `${names.join(', ')}: not a model the bake reads; bring a tet mesh (${tetExtensions.join(', ')}), ` +
      `a closed surface (.obj, .stl, .off, .ply, .gltf, .glb) or a scene recipe (.json)`,
  );
}

// smfem-bake's progress lines (command/bake_command.cpp) and how far each says the bake is.
const stages = [
  { prefix: 'reading', stage: 'tetrahedralize', progress: 0.05 },
  { prefix: 'Laplacian', stage: 'eigenmodes', progress: 0.3 },
  { prefix: 'eigensolve', stage: 'eigenmodes', progress: 0.35 },
  { prefix: 'cubature', stage: 'cubature', progress: 0.7 },
  { prefix: 'render weights', stage: 'render', progress: 0.85 },
  { prefix: 'writing', stage: 'write', progress: 0.95 },
];

export class BakeClient {
  /**
   * onState: called with { stage, progress, ms, tets, error } whenever it changes, and once
   * done with the bake's modes, cubature (tets), pinned (vertices) and build ('threads' or
   * 'single': the bake's module, threaded where the page is cross-origin isolated) too.
   */
  constructor(onState) {
    this.onState = onState;
    this.worker = null;
    this.running = null; // { reject } of the bake in progress
    this.state = null; // the last bake's { stage, progress, ms, tets, error }
  }

  /**
   * Bakes files ({ name, bytes }: handed over to the worker; for a glTF scene, its triangles)
   * with smfem-bake's defaults and `options` (more of its command line: ['--paint',
   * 'x,y,z,r,E']), resolving with { asset, summary, input } (input: the file baked, bakeInput's
   * choice).
   */
  bake(files, options = []) {
    this.cancel();
    const started = performance.now();
    const state = { stage: 'load', progress: 0, ms: 0, tets: null, error: null };
    this.state = state;
    const say = (change) =>
      this.onState({ ...Object.assign(state, change, { ms: performance.now() - started }) });
    let input;
    try {
      input = bakeInput(files.map((file) => bakedName(file.name)));
      const bytes = files.reduce((sum, file) => sum + file.bytes.byteLength, 0);
      if (bytes > kMaxBytes) {
        throw new Error(
          `${input}: ${(bytes / 2 ** 20).toFixed(0)} MB of files, more than the ` +
            `${kMaxBytes / 2 ** 20} MB the page's bake reads; simplify the model, or bake it with the native smfem-bake`,
        );
      }
    } catch (error) {
      say({ error: error.message });
      return Promise.reject(error);
    }
    // A surface (or a recipe) is tetrahedralized while it is read.
    const reading = tetExtensions.includes(extension(input)) ? 'read' : 'tetrahedralize';
    say({});
    this.worker ??= new Worker(new URL('./bake.worker.js', import.meta.url), { type: 'module' });
    return new Promise((resolve, reject) => {
      this.running = { reject };
      this.worker.onmessage = ({ data }) => {
        if (data.type === 'line') {
          const text = data.line.replace('[smfem-bake] ', '');
          const found = stages.find(({ prefix }) => text.startsWith(prefix));
          if (found)
            say({
              stage: found.stage === 'tetrahedralize' ? reading : found.stage,
              progress: found.progress,
            });
          const tets = / (\d+) tets, /.exec(` ${text}`);
          if (tets) say({ tets: Number(tets[1]) });
          return;
        }
        this.running = null;
        if (data.type === 'done') {
          const { tets, modes, cubature, pinned } = data.summary;
          say({ stage: 'done', progress: 1, tets, modes, cubature, pinned, build: data.build });
          resolve({ asset: data.asset, summary: data.summary, input });
        } else {
          say({ error: data.error });
          reject(new Error(data.error));
        }
      };
      this.worker.onerror = (event) => {
        this.running = null;
        const error = event.message || 'the bake worker failed';
        say({ error });
        reject(new Error(error));
      };
      this.worker.postMessage(
        {
          files,
          args: [input, '--max-tets', String(kMaxTets), '--max-triangles', String(kMaxTriangles), ...options],
          gltf: files.find(({ name }) => isGltf(name) && bakedName(name) === input)?.name,
        },
        files.map((file) => file.bytes.buffer),
      );
    });
  }

  /**
   * Ends a bake in progress (its promise rejects with "The bake was cancelled.", the error's
   * `cancelled` true); none: nothing.
   */
  cancel() {
    if (!this.running) return;
    this.worker.terminate();
    this.worker = null;
    const { reject } = this.running;
    this.running = null;
    this.onState({ ...this.state, stage: 'cancelled', error: 'cancelled' });
    reject(Object.assign(new Error('The bake was cancelled.'), { cancelled: true }));
  }
}
