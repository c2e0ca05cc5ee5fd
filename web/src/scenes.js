// The gallery: every scene the bake tool ships, baked into build/native/assets/ by npm start.
// Literal URLs and globs let Vite content-hash the assets in a production build.
//   - A body on its own (assets/scenes/*.json): one asset; what it shows is the recipe's
//     description, read from the asset.
//   - A shell or a rod (assets/scenes/thin/*.json): its recipe, which the solver reads itself.
//   - A scene with contact (assets/scenes/contact/*.json): the scene file (inlined: it is small)
//     and its bodies' assets, found by the paths the file gives; what it shows is the file's
//     description.
// (The crab body serves only the contact benchmark, crab-rest.json: not shipped with the page.
// Nor is pile-30.json, the benchmark's 30-body pile: once it has piled it is one island whose
// dense coupled solve takes about a second a step, far too slow to show.)
import { materialModelLabels } from '../../wasm/js/material_models.js';
const bodyAssets = import.meta.glob(
  ['../../build/native/assets/contact/bodies/*.smfem', '!**/contact/bodies/crab.smfem'],
  {
    query: '?url',
    import: 'default',
    eager: true,
  },
);
const contactFiles = import.meta.glob('../../build/native/assets/contact/*.json', {
  import: 'default',
  eager: true,
});

// A scene with contact, or where it cannot open, why (said when it is chosen: one scene the
// build lacks must not take the gallery down).
function contactScene(title, name) {
  const file = contactFiles[`../../build/native/assets/contact/${name}.json`];
  if (!file) return { title, problem: `the contact scene ${name}.json is not baked (run npm start)` };
  const bodies = file.bodies.map(({ asset }) => ({
    name: asset,
    url: bodyAssets[`../../build/native/assets/contact/${asset}`],
  }));
  const missing = file.bodies.findIndex(({ asset }, i) => !asset || !bodies[i].url);
  if (missing >= 0) {
    const body = file.bodies[missing];
    return {
      title,
      problem: `${name}.json: body ${missing} (${body.asset ?? body.recipe}) has no baked asset in the page's build`,
    };
  }
  return { title, contact: { text: JSON.stringify(file), bodies, description: file.description } };
}

// A shell or a rod (assets/scenes/thin/): its recipe, read by the solver itself (no bake), and
// the URLs of the mesh files a recipe may name, by the name it gives them (relative to thin/).
const thinRecipes = import.meta.glob('../../assets/scenes/thin/*.json', { import: 'default', eager: true });
const thinMeshes = Object.fromEntries(
  Object.entries(
    import.meta.glob('../../assets/scenes/meshes/*', { query: '?url', import: 'default', eager: true }),
  ).map(([path, url]) => [path.replace('../../assets/scenes/', '../'), url]),
);
function thinScene(title, name) {
  const recipe = thinRecipes[`../../assets/scenes/thin/${name}.json`];
  if (!recipe) return { title, problem: `the shell or rod ${name}.json is not in assets/scenes/thin/` };
  return { title, thin: { text: JSON.stringify(recipe), meshUrls: thinMeshes } };
}

// A lineup: the same recipe baked at several resolutions (assets/scenes/eigenfit/), one
// simulator each, in lockstep.
const eigenFitAssets = {
  bar: new URL('../../build/native/assets/eigenfit/bar.smfem', import.meta.url),
  'bar-fine': new URL('../../build/native/assets/eigenfit/bar-fine.smfem', import.meta.url),
  'bar-finest': new URL('../../build/native/assets/eigenfit/bar-finest.smfem', import.meta.url),
};
const lineup = (title, description, names) => ({
  title,
  lineup: {
    description,
    bodies: names.map((name) => ({ name: `${name}.smfem`, url: eigenFitAssets[name] })),
  },
});

// A lineup of one asset, one body per material model: the same mesh, subspace and loads, only
// the model differs (Subspace MFEM, Trusty et al. 2023, Fig. 15).
const modelsLineup = (title, description, name, url, figure) => ({
  title,
  figure,
  lineup: {
    description,
    bodies: Object.keys(materialModelLabels).map((materialModel) => ({
      name,
      url,
      parameters: { materialModel },
    })),
  },
});

// Each body's asset again with its tet mesh (assets/CMakeLists.txt: <name>.full.smfem), fetched
// only when its local deformations are turned on.
const fullAssets = import.meta.glob('../../build/native/assets/*.full.smfem', {
  query: '?url',
  import: 'default',
  eager: true,
});

// `figure`: the section of the paper's report (npm run figures, web/public/report/) that
// measures what the scene shows.
const body = (title, url, figure) => ({ title, url, ...(figure ? { figure } : {}) });

export const scenes = {
  bunny: body('Bunny', new URL('../../build/native/assets/bunny.smfem', import.meta.url)),
  crab: body('Crab', new URL('../../build/native/assets/crab.smfem', import.meta.url), {
    id: 'fig2-13',
    label: 'Fig. 2',
  }),
  candy: body('Candy', new URL('../../build/native/assets/candy.smfem', import.meta.url)),
  pendulum: body('Pendulum', new URL('../../build/native/assets/pendulum.smfem', import.meta.url), {
    id: 'fig2-13',
    label: 'Fig. 13',
  }),
  octobot: body('Octobot', new URL('../../build/native/assets/octobot.smfem', import.meta.url), {
    id: 'fig9',
    label: 'Fig. 9',
  }),
  swordsman: body('Swordsman', new URL('../../build/native/assets/swordsman.smfem', import.meta.url), {
    id: 'table1-fig10',
    label: 'Table 1',
  }),
  creature: body('Creature', new URL('../../build/native/assets/creature.smfem', import.meta.url), {
    id: 'table1-fig10',
    label: 'Table 1',
  }),
  beam: body('Beam', new URL('../../build/native/assets/beam.smfem', import.meta.url), {
    id: 'fig14',
    label: 'Fig. 14',
  }),
  materials: body('Materials', new URL('../../build/native/assets/materials.smfem', import.meta.url)),
  'material-models': modelsLineup(
    'Material models side by side',
    'One cantilever, stiff at its root and soft at its tip, three times: under ARAP, fixed ' +
      'corotational and stable neo-Hookean, the same mesh, subspace and loads, stepped in ' +
      'lockstep. Raise gravity to reach large strain: ARAP sags most, the other two alike.',
    'beam.smfem',
    new URL('../../build/native/assets/beam.smfem', import.meta.url),
    { id: 'fig15', label: 'Fig. 15' },
  ),
  eigenfit: lineup(
    'EigenFit: three resolutions',
    'One rubber bar baked at about 5k, 40k and 300k tets, each with 16 modes and 581 cubature ' +
      'tets, fitted to a fine mesh integrated exactly (EigenFit, Chen et al. 2019: the two coarser to ' +
      'the 40k mesh, the finest to itself; the two fine meshes agree within 2 % on the first four ' +
      'frequencies) and stepped in lockstep. They sag and rest within a second: drag a bar and let ' +
      'go (a drag holds all three at the same point). With the fit they swing together; turn it off and ' +
      'each swings at its own frequency: the 5k mesh is stiff, the 40k one, under-integrated by ' +
      'its k-means cubature, soft, and the 300k one, on NNLS cubature, stiff again.',
    ['bar', 'bar-fine', 'bar-finest'],
  ),
  'bunny-drop': contactScene('Contact: bunny drop', 'bunny-drop'),
  'creature-ramp': contactScene('Contact: creature on a ramp', 'creature-ramp'),
  'jelly-pile': contactScene('Contact: jelly pile', 'jelly-pile'),
  'rain-100': contactScene('Contact: a hundred bodies rain down', 'rain-100'),
  'ball-wall': contactScene('Contact: ball and wall', 'ball-wall'),
  squeeze: contactScene('Contact: squeeze', 'squeeze'),
  'jelly-drop': contactScene('Contact: jelly slide', 'jelly-drop'),
  playground: contactScene('Contact: obstacle playground', 'playground'),
  poke: contactScene('Poke: local deformations', 'poke'),
  'cloth-corners': thinScene('Cloth held by two corners', 'cloth-corners'),
  'cloth-drape': thinScene('Cloth draped over a sphere', 'cloth-drape'),
  rope: thinScene('Rope', 'rope'),
  'coil-spring': thinScene('Coil spring', 'coil-spring'),
  'bunny-shell': thinScene('Bunny as a shell', 'bunny-shell'),
  'bunny-rods': thinScene('Bunny as rods', 'bunny-rods'),
  'bunny-three-ways': thinScene('Bunny as a volume, a shell and rods', 'bunny-three-ways'),
};

// A body's scene key names its asset: <key>.smfem, and <key>.full.smfem with its tet mesh.
for (const [name, scene] of Object.entries(scenes)) {
  const fullUrl = fullAssets[`../../build/native/assets/${name}.full.smfem`];
  if (scene.url && fullUrl) scene.fullUrl = fullUrl;
}

export const defaultScene = 'crab';
// On a narrow screen (a phone, where the panel starts folded): the lightest body, 5 modes where
// the crab has 16 (USERS.md: a lighter default scene on phones).
export const narrowScreenScene = 'beam';
