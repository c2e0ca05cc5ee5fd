// The gallery: every scene the bake tool ships (assets/scenes/*.json, baked into
// build/native/assets/ by npm start). Literal URLs let Vite content-hash the assets in a
// production build. What each scene shows is the recipe's description, read from the asset.
export const scenes = {
  bunny: { title: 'Bunny', url: new URL('../../build/native/assets/bunny.smfem', import.meta.url) },
  crab: { title: 'Crab', url: new URL('../../build/native/assets/crab.smfem', import.meta.url) },
  candy: { title: 'Candy', url: new URL('../../build/native/assets/candy.smfem', import.meta.url) },
  pendulum: { title: 'Pendulum', url: new URL('../../build/native/assets/pendulum.smfem', import.meta.url) },
  octobot: { title: 'Octobot', url: new URL('../../build/native/assets/octobot.smfem', import.meta.url) },
  swordsman: {
    title: 'Swordsman',
    url: new URL('../../build/native/assets/swordsman.smfem', import.meta.url),
  },
  creature: { title: 'Creature', url: new URL('../../build/native/assets/creature.smfem', import.meta.url) },
  beam: { title: 'Beam', url: new URL('../../build/native/assets/beam.smfem', import.meta.url) },
  materials: {
    title: 'Materials',
    url: new URL('../../build/native/assets/materials.smfem', import.meta.url),
  },
};

export const defaultScene = 'crab';
