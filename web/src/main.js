// The demo page: a baked scene, simulated in a worker by the wasm module (threaded where the
// page is cross-origin isolated) and skinned on the GPU by three.js.
import * as THREE from 'three';
import { readAsset, readCubatureMarkers, readRenderSurface } from '../../wasm/js/asset.js';
import { missingCapabilities } from './capabilities.js';
import { SkinnedSurface } from './render/SkinnedSurface.js';
import { View } from './render/View.js';
import { defaultScene, scenes } from './scenes.js';
import { SimulationClient } from './sim/SimulationClient.js';
import { StepClock } from './sim/StepClock.js';
import { comparedSolvers, formatState, parseState, solverName, solvers } from './state/urlState.js';
import { Controls } from './ui/Controls.js';
import { CanvasRecorder } from './ui/CanvasRecorder.js';
import { download } from './ui/download.js';
import { DragController } from './ui/DragController.js';
import { Plots } from './ui/Plots.js';
import { fetchBytes } from '../../wasm/js/fetchBytes.js';
import { StatusBoard } from './status.js';

const sceneNames = Object.keys(scenes);
const urlState = parseState(location.search, sceneNames);
const status = new StatusBoard(document.getElementById('status'));
window.smfem = {
  get status() {
    return status.snapshot();
  },
};

const progress = document.getElementById('progress');
const description = document.getElementById('description');
document.body.classList.toggle('embed', urlState.embed === true);

// Settings of the running scene: the asset's defaults overridden by the URL and the controls.
function settingsFor(meta, overrides) {
  const solver = meta.solver ?? {};
  const youngs = {};
  (meta.materials ?? []).forEach((material, index) => {
    const region = material.region ?? index;
    youngs[region] = overrides.youngs?.[region] ?? material.youngs;
  });
  return {
    solver: overrides.solver ?? solver.method ?? 'mfem',
    materialModel: overrides.materialModel ?? solver.material_model ?? 'fixed_corotational',
    iterations: overrides.iterations ?? solver.iterations ?? 2,
    timestep: overrides.timestep ?? solver.timestep ?? 1 / 60,
    gravity: overrides.gravity ?? solver.gravity?.[1] ?? -9.8,
    speed: overrides.speed ?? 1,
    compare: overrides.compare ?? false,
    // Beside MFEM when side by side.
    against: overrides.against ?? comparedSolvers[0],
    // Colour by the weight of this mode (1-based, as the page shows it), or 0: the material's.
    mode: overrides.mode ?? 0,
    // Colour by cubature cluster and show the representative tets (over `mode`).
    clusters: overrides.clusters ?? false,
    youngs,
  };
}

// One parameter set per simulator: side by side, MFEM on the left and FEM (or the paper's
// variant of MFEM) on the right, with everything else the same.
function parameterSets(settings, gravityVector) {
  const shared = simulatorParameters(settings, gravityVector);
  return settings.compare
    ? [
        { ...shared, ...solvers.mfem.parameters },
        { ...shared, ...solvers[settings.against].parameters },
      ]
    : [{ ...shared, ...solvers[settings.solver].parameters }];
}

function simulatorParameters(settings, gravityVector) {
  return {
    materialModel: settings.materialModel,
    iterations: settings.iterations,
    timestep: settings.timestep,
    gravity: [gravityVector[0], settings.gravity, gravityVector[2]],
    materials: Object.entries(settings.youngs).map(([region, youngs]) => ({
      region: Number(region),
      youngs,
    })),
  };
}

class Demo {
  constructor() {
    this.view = new View(
      document.getElementById('view'),
      (lost) =>
        status.notice(
          lost
            ? 'The graphics context was lost; waiting for the browser to restore it…'
            : 'Graphics restored.',
        ),
      document.getElementById('panel'),
    );
    this.client = new SimulationClient();
    this.retriedSteps = []; // per simulator, since the scene was opened or reset (the notice counts them)
    this.client.onProgress = (loaded, total) => this.showProgress(0.5 * (total ? loaded / total : 0));
    this.controls = new Controls(document.getElementById('controls'), {
      onPlayPause: () => this.setPaused(!this.paused),
      onStep: () => this.stepOnce(),
      onReset: () => this.reset(),
      onChange: (change) => this.change(change),
      onScene: (name) => this.open(name, {}),
    });
    this.drag = new DragController(
      this.view,
      this.client,
      (error) => status.fail(error),
      (active) => status.dragging(active),
    );
    this.plots = new Plots(document.getElementById('plots'));
    document
      .getElementById('export-csv')
      .addEventListener('click', () =>
        download(new Blob([this.plots.csv()], { type: 'text/csv' }), `${this.scene}.csv`),
      );
    this.recorder = new CanvasRecorder(this.view.renderer.domElement, document.getElementById('record'));
    this.paused = urlState.paused === true;
    this.onScreen = true;
    this.inFlight = false;
    this.surfaces = [];
    this.clock = new StepClock({ timestep: 1 / 60 });
    this.watchVisibility();
  }

  showProgress(fraction) {
    progress.hidden = false;
    progress.value = Math.max(progress.value, fraction);
  }

  async open(name, overrides) {
    status.loading(name);
    progress.value = 0;
    this.showProgress(0);
    const url = scenes[name].url;
    const bytes = await fetchBytes(url, (loaded, total) =>
      this.showProgress(0.5 + 0.5 * (total ? loaded / total : 0)),
    );
    const asset = readAsset(bytes, `${name}.smfem`);
    const surface = readRenderSurface(asset);
    this.meta = asset.meta;
    this.settings = settingsFor(this.meta, overrides);
    this.gravityVector = this.meta.solver?.gravity ?? [0, -9.8, 0];

    const loaded = await this.client.load({
      asset: bytes.slice(),
      sourceName: `${name}.smfem`,
      parameterSets: parameterSets(this.settings, this.gravityVector),
    });
    for (const old of this.surfaces) old.dispose();
    const markers = readCubatureMarkers(asset);
    this.surfaces = loaded.u.map(() => new SkinnedSurface(surface, { markers }));
    // Side by side, the bodies stand apart along x by 1.3 times the body's width.
    const rest = this.surfaces[0].restBounds;
    const spacing = 1.3 * (rest.max.x - rest.min.x);
    const offsets = this.surfaces.map(
      (_, i) => new THREE.Vector3((i - (this.surfaces.length - 1) / 2) * spacing, 0, 0),
    );
    const group = new THREE.Group();
    const bounds = new THREE.Box3();
    this.surfaces.forEach((skinned, i) => {
      skinned.mesh.position.copy(offsets[i]);
      group.add(skinned.mesh);
      bounds.union(rest.clone().translate(offsets[i]));
    });
    this.view.setBody(group, bounds, this.settings.compare ? null : (this.meta.camera ?? null));
    // A drag spring that moves the whole body at a few hertz: k = mass (2 pi 2 Hz)^2.
    const mass = asset.has('subspace.total_mass') ? asset.get('subspace.total_mass')[0] : 1;
    this.drag.attach(surface, mass * (4 * Math.PI) ** 2, offsets);
    this.show(loaded.u);
    this.applyColouring();
    const names = loaded.info.map((info) => solverName(info.parameters));
    this.plots.reset(names);
    this.retriedSteps = names.map(() => 0);

    this.scene = name;
    this.clock = new StepClock({ timestep: this.settings.timestep, speed: this.settings.speed });
    description.textContent =
      (this.meta.description ?? '') +
      (this.settings.compare
        ? ` Left: ${solvers.mfem.label}; right: ${solvers[this.settings.against].label}, same inputs.`
        : '');
    this.controls.build({
      scene: name,
      scenes: Object.entries(scenes).map(([key, s]) => [key, s.title]),
      settings: this.settings,
      materials: (this.meta.materials ?? []).map((m, index) => ({ name: m.name, region: m.region ?? index })),
      modeCount: surface.modeCount,
      hasClusters: this.surfaces[0].hasClusters,
      paused: this.paused,
    });
    progress.hidden = true;
    status.ready(name, loaded.build, names);
    this.writeUrl();
  }

  writeUrl() {
    const state = { ...this.settings, scene: this.scene, embed: urlState.embed, paused: this.paused };
    history.replaceState(null, '', formatState(state) || location.pathname);
  }

  async change(change) {
    if ('compare' in change || ('against' in change && this.settings.compare)) {
      // Side by side needs a second simulator: load the scene again with the new layout.
      Object.assign(this.settings, change);
      await this.open(this.scene, this.settings).catch((e) => status.fail(e));
      return;
    }
    if (change.youngs) change = { youngs: { ...this.settings.youngs, ...change.youngs } };
    Object.assign(this.settings, change);
    this.clock.timestep = this.settings.timestep;
    this.clock.speed = this.settings.speed;
    this.writeUrl();
    if ('mode' in change || 'clusters' in change) {
      this.applyColouring();
      return;
    }
    if (!('speed' in change)) {
      await this.client
        .setParameters(parameterSets(this.settings, this.gravityVector))
        .catch((e) => status.fail(e));
    }
  }

  // The teaching views: clusters over a mode's weight over the material's colour.
  applyColouring() {
    for (const skinned of this.surfaces) {
      skinned.showClusters(this.settings.clusters);
      skinned.colourByMode(this.settings.clusters ? -1 : this.settings.mode - 1);
    }
  }

  setPaused(paused) {
    this.paused = paused;
    this.clock.restart();
    this.controls.setPaused(paused);
    this.writeUrl();
  }

  async stepOnce() {
    if (!this.paused) this.setPaused(true);
    await this.advance(1);
  }

  // Draws the states (12m reduced coordinates per simulator).
  show(us) {
    us.forEach((u, i) => this.surfaces[i].setReducedCoordinates(u));
    this.drag.setCoordinates(us);
  }

  async reset() {
    const answer = await this.client.reset();
    this.show(answer.u);
    this.plots.reset(this.plots.solvers);
    this.retriedSteps = this.plots.solvers.map(() => 0);
    status.resetTime();
  }

  async advance(steps) {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      const answer = await this.client.advance(steps);
      for (const warning of answer.warnings ?? []) console.warn(`smfem: ${warning}`);
      status.stepped(answer.reports[0]);
      const retried = answer.reports.map((list) => list.filter((r) => r.ok && r.retries > 0).length);
      if (retried.some((count) => count > 0)) {
        retried.forEach((count, i) => (this.retriedSteps[i] += count));
        const counts = this.plots.solvers.map((name, i) => `${name} ${this.retriedSteps[i]}`).join(', ');
        status.notice(
          `Steps that gained energy beyond the loads' work or failed at ${this.settings.iterations} ` +
            `iteration(s), solved again with more: ${counts}.`,
        );
      }
      this.plots.record(answer.reports);
      if (answer.reports.some((list) => list.some((report) => !report.ok))) {
        // A blow-up: start the scene over rather than freeze on a broken state.
        await this.reset();
        status.notice(
          'The simulation became unstable and was reset. Try a smaller time step or more iterations.',
        );
      } else {
        this.show(answer.u);
      }
    } catch (error) {
      status.fail(error);
      this.paused = true;
    } finally {
      this.inFlight = false;
    }
  }

  // Runs only while visible: a hidden tab stops animation frames; an off-screen embed pauses.
  watchVisibility() {
    document.addEventListener('visibilitychange', () => this.clock.restart());
    new IntersectionObserver(([entry]) => {
      this.onScreen = entry.isIntersecting;
      this.clock.restart();
    }).observe(this.view.renderer.domElement);
  }

  run() {
    const frame = (now) => {
      requestAnimationFrame(frame);
      if (!this.surfaces.length) return;
      if (!this.paused && this.onScreen && !this.inFlight) {
        const steps = this.clock.tick(now / 1000);
        if (steps > 0) this.advance(steps);
      }
      if (this.onScreen) {
        this.plots.draw();
        this.view.render();
        status.framed(now);
      }
    };
    requestAnimationFrame(frame);
  }
}

async function start() {
  const problems = missingCapabilities();
  if (problems.length) throw new Error(problems.join(' '));
  const demo = new Demo();
  await demo.open(urlState.scene ?? defaultScene, urlState);
  demo.run();
}

start().catch((error) => {
  progress.hidden = true;
  status.fail(error);
});
