// The demo page: a baked scene (a body on its own, or several with contact among obstacles),
// simulated in a worker by the wasm module (threaded where the page is cross-origin isolated)
// and skinned on the GPU by three.js.
import { missingCapabilities } from './capabilities.js';
import { ContactStage } from './render/ContactStage.js';
import { SideBySideStage } from './render/SideBySideStage.js';
import { View } from './render/View.js';
import { defaultScene, scenes } from './scenes.js';
import { SimulationClient } from './sim/SimulationClient.js';
import { StepClock } from './sim/StepClock.js';
import { comparedSolvers, formatState, parseState, solverName, solvers } from './state/urlState.js';
import { Controls } from './ui/Controls.js';
import { CanvasRecorder } from './ui/CanvasRecorder.js';
import { download } from './ui/download.js';
import { DragController } from './ui/DragController.js';
import { foldablePanel } from './ui/foldablePanel.js';
import { Plots } from './ui/Plots.js';
import { fetchBytes } from '../../wasm/js/fetchBytes.js';
import { StatusBoard } from './status.js';

const sceneNames = Object.keys(scenes);
const urlNotices = [];
const urlState = parseState(location.search, sceneNames, urlNotices);
const status = new StatusBoard(document.getElementById('status'), document.getElementById('notices'));
for (const notice of urlNotices) status.warn(notice);
// For automation (tests, scripts driving the page headless): the status, and where a point of
// the scene is drawn (set once the view exists).
window.smfem = {
  get status() {
    return status.snapshot();
  },
  project: null,
};

const progress = document.getElementById('progress');
const description = document.getElementById('description');
document.body.classList.toggle('embed', urlState.embed === true);
foldablePanel(document.getElementById('panel-toggle'), document.getElementById('panel-body'), {
  folded: matchMedia('(max-width: 600px)').matches,
});

// Settings of the running scene: the URL's and the controls' over `effective`, the parameters
// the simulator read from the asset (the stepper owns the defaults; the page keeps no copy),
// and the materials' moduli from its metadata.
function settingsFor(meta, effective, overrides) {
  const youngs = {};
  (meta.materials ?? []).forEach((material, index) => {
    const region = material.region ?? index;
    youngs[region] = overrides.youngs?.[region] ?? material.youngs;
  });
  return {
    solver: overrides.solver ?? solverName(effective),
    materialModel: overrides.materialModel ?? effective.materialModel,
    iterations: overrides.iterations ?? effective.iterations,
    timestep: overrides.timestep ?? effective.timestep,
    gravity: overrides.gravity ?? effective.gravity[1],
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

// Settings of a scene with contact (its time step and gravity are the scene file's): the URL's
// over the parameters the scene's stepper has.
function contactSettingsFor(effective, overrides) {
  return {
    solver: overrides.solver ?? solverName(effective),
    iterations: overrides.iterations ?? effective.iterations,
    speed: overrides.speed ?? 1,
    contacts: overrides.contacts ?? false,
  };
}

// The parameters the URL sets for a scene with contact (the rest are the stepper's).
function contactOverrides(overrides) {
  return {
    ...(overrides.solver && solvers[overrides.solver].parameters),
    ...(overrides.iterations !== undefined && { iterations: overrides.iterations }),
  };
}

function contactParameters(settings) {
  return { ...solvers[settings.solver].parameters, iterations: settings.iterations };
}

// A drag spring that moves a whole body of this mass at a few hertz: k = mass (2 pi 2 Hz)^2.
const dragStiffness = (mass) => mass * (4 * Math.PI) ** 2;

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
    window.smfem.project = (point) => this.view.project(point);
    this.client = new SimulationClient();
    this.retriedSteps = []; // per simulator, since the scene was opened or reset (the notice counts them)
    // The bar: the scene's assets to 45 %, the wasm module's download (first load only) to 90 %;
    // the rest is compiling it and building the simulators, and the bar goes when they are.
    this.client.onProgress = (loaded, total) => this.showProgress(0.45 + 0.45 * (total ? loaded / total : 0));
    this.controls = new Controls(document.getElementById('controls'), {
      onPlayPause: () => this.setPaused(!this.paused),
      onStep: () => this.stepOnce(),
      onReset: () => this.reset(),
      onDrop: () => this.drop().catch((e) => status.fail(e)),
      onChange: (change) => this.change(change),
      onScene: (name) => this.open(name, {}).catch((e) => status.fail(e)),
    });
    this.drag = new DragController(
      this.view,
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
    this.stage = null;
    this.obstacleTargets = new Map(); // where the user dragged each obstacle (kept by Drop)
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
    const scene = scenes[name];
    if (scene.problem) throw new Error(scene.problem);
    const opened = scene.contact
      ? await this.openContact(name, scene.contact, overrides)
      : await this.openBody(name, scene.url, overrides);
    this.stage?.dispose();
    this.stage = opened.stage;
    this.contact = Boolean(scene.contact);
    this.obstacleTargets.clear();
    this.view.setBody(this.stage.object, this.stage.bounds, opened.camera, this.stage.floor);
    this.drag.attach(this.stage, opened.dragActions);
    this.show(opened.loaded);
    this.applyViews();
    const names = opened.names;
    this.plots.reset(names);
    this.retriedSteps = names.map(() => 0);

    this.scene = name;
    this.clock = new StepClock({ timestep: opened.timestep, speed: this.settings.speed });
    description.textContent = opened.description;
    this.controls.build({
      scene: name,
      scenes: Object.entries(scenes).map(([key, s]) => [key, s.title]),
      settings: this.settings,
      paused: this.paused,
      ...opened.controls,
    });
    progress.hidden = true;
    status.ready(name, opened.loaded.build, names);
    this.writeUrl();
  }

  // A body on its own: one simulator, or two side by side.
  async openBody(name, url, overrides) {
    const bytes = await fetchBytes(url, (loaded, total) =>
      this.showProgress(0.45 * (total ? loaded / total : 0)),
    );
    // The worker reads the asset (the page parses none); the settings are its metadata's
    // defaults under the URL's, given to the simulators once it is read.
    const loaded = await this.client.load({
      asset: bytes,
      sourceName: `${name}.smfem`,
      parameterSets: overrides.compare ? [{}, {}] : [{}],
    });
    this.meta = loaded.page.meta;
    const effective = loaded.info[0].parameters;
    this.settings = settingsFor(this.meta, effective, overrides);
    this.gravityVector = effective.gravity;
    const sets = parameterSets(this.settings, this.gravityVector);
    await this.client.setParameters(sets);
    const { surface, markers } = loaded.page;
    if (this.settings.mode > surface.modeCount) {
      status.warn(
        `mode=${this.settings.mode}: this scene has ${surface.modeCount} modes; mode ${surface.modeCount} is shown.`,
      );
      this.settings.mode = surface.modeCount;
    }
    const stage = new SideBySideStage(surface, markers, loaded.u.length);
    // Every simulator gets the same spring at the same place relative to its body (same inputs).
    const stiffness = dragStiffness(loaded.info[0].totalMass);
    let held = null;
    const targets = (point) => {
      const local = point.clone().sub(stage.bodies[held].offset).toArray();
      return stage.bodies.map(() => local);
    };
    return {
      loaded,
      stage,
      names: sets.map(solverName),
      timestep: this.settings.timestep,
      camera: this.settings.compare ? null : (this.meta.camera ?? null),
      description:
        (this.meta.description ?? '') +
        (this.settings.compare
          ? ` Left: ${solvers.mfem.label}; right: ${solvers[this.settings.against].label}, same inputs.`
          : ''),
      controls: {
        sampledRegions: loaded.info[0].cubatureRegions,
        defaults: {
          timestep: effective.timestep,
          gravity: effective.gravity[1],
          youngs: Object.fromEntries((this.meta.materials ?? []).map((m, i) => [m.region ?? i, m.youngs])),
        },
        materials: (this.meta.materials ?? []).map((m, index) => ({
          name: m.name,
          region: m.region ?? index,
        })),
        modeCount: surface.modeCount,
        hasClusters: stage.hasClusters,
      },
      dragActions: {
        grab: (body, vertex, point) => {
          held = body;
          return this.client.dragStart(0, vertex, targets(point), stiffness);
        },
        pull: (point) => this.client.dragMove(targets(point)),
        release: () => this.client.dragEnd(),
      },
    };
  }

  // A scene with contact: every body in one stepper, among obstacles.
  async openContact(name, contact, overrides) {
    // Each asset once, however many bodies share it.
    const urls = [...new Set(contact.bodies.map((body) => String(body.url)))];
    let fetched = 0;
    const downloads = new Map(
      await Promise.all(
        urls.map(async (url) => {
          const bytes = await fetchBytes(url);
          this.showProgress((0.45 * ++fetched) / urls.length);
          return [url, bytes];
        }),
      ),
    );
    this.meta = null;
    const loaded = await this.client.loadContact({
      sceneText: contact.text,
      // Each body its own copy: the copies move to the worker.
      assets: contact.bodies.map((body) => ({
        bytes: downloads.get(String(body.url)).slice(),
        name: body.name,
      })),
      sourceName: `${name}.json`,
      parameters: contactOverrides(overrides),
    });
    const [info] = loaded.info;
    this.settings = contactSettingsFor(info.parameters, overrides);
    const stage = new ContactStage(
      info,
      loaded.pages.map((page) => page.surface),
    );
    const stiffness = info.bodies.map((body) => dragStiffness(body.mass));
    return {
      loaded,
      stage,
      names: [this.settings.solver],
      timestep: info.timestep,
      camera: null,
      description:
        `${contact.description} ` +
        'Drag any body or the grey obstacles; Drop lets the bodies fall again where the obstacles now are.',
      controls: { contact: true },
      dragActions: {
        grab: (body, vertex, point) =>
          this.client.dragStart(body, vertex, [point.toArray()], stiffness[body]),
        pull: (point) => this.client.dragMove([point.toArray()]),
        release: () => this.client.dragEnd(),
        moveObstacle: (index, offset) => {
          this.obstacleTargets.set(index, offset.toArray());
          return this.client.moveObstacle(index, offset.toArray());
        },
      },
    };
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
    // (A contact scene's time step is its file's: only a change sets the clock's.)
    if ('timestep' in change) this.clock.timestep = change.timestep;
    if ('speed' in change) this.clock.speed = change.speed;
    this.writeUrl();
    if ('mode' in change || 'clusters' in change || 'contacts' in change) {
      this.applyViews();
      return;
    }
    if (!('speed' in change)) {
      const sets = this.contact
        ? [contactParameters(this.settings)]
        : parameterSets(this.settings, this.gravityVector);
      await this.client.setParameters(sets).catch((e) => status.fail(e));
      if ('solver' in change) this.startRecords(sets.map(solverName));
    }
  }

  // The plots, the CSV and status name the solvers running: a change of solver starts them anew.
  startRecords(names) {
    this.plots.reset(names);
    this.retriedSteps = names.map(() => 0);
    status.solversChanged(names);
  }

  // The teaching views: a body's clusters or mode weights; a scene's contact points.
  applyViews() {
    this.stage.applyColouring({ clusters: this.settings.clusters ?? false, mode: this.settings.mode ?? 0 });
    this.stage.showContacts?.(this.settings.contacts);
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

  // Draws a worker's answer: its states (u, per simulator), and in a scene with contact, the
  // contact points and where the last step left the obstacles.
  show(answer) {
    this.stage.show({
      u: answer.u,
      contactPoints: answer.contactPoints,
      obstacleOffsets: answer.reports?.[0]?.at(-1)?.obstacleOffsets,
    });
  }

  async reset() {
    this.obstacleTargets.clear();
    const answer = await this.client.reset();
    this.show(answer);
    this.plots.reset(this.plots.solvers);
    this.retriedSteps = this.plots.solvers.map(() => 0);
    status.resetTime();
  }

  // A scene with contact: the bodies back where they started, in the air; the obstacles kept
  // where the user dragged them (they move back there as far as the bodies let them).
  async drop() {
    const kept = [...this.obstacleTargets];
    await this.reset();
    for (const [index, offset] of kept) {
      this.obstacleTargets.set(index, offset);
      await this.client.moveObstacle(index, offset);
    }
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
        this.show(answer);
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
      if (!this.stage) return;
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
