// The demo page: a baked scene (a body on its own, or several with contact among obstacles),
// simulated in a worker by the wasm module (threaded where the page is cross-origin isolated)
// and skinned on the GPU by three.js.
import { missingCapabilities } from './capabilities.js';
import { CustomScene } from './custom/CustomScene.js';
import { bodySeriesNames, openBody, parameterSets } from './open/openBody.js';
import { contactParameterSets, contactSeriesNames, openContact } from './open/openContact.js';
import { lineupLabels, lineupNames, lineupParameterSets, openLineup } from './open/openLineup.js';
import { openOnGround } from './open/openOnGround.js';
import { openThin, thinParameterSets } from './open/openThin.js';
import { skinVertex } from './render/skinning.js';
import { View } from './render/View.js';
import { defaultScene, narrowScreenScene, scenes } from './scenes.js';
import { SimulationClient } from './sim/SimulationClient.js';
import { RunawayWatch } from './sim/RunawayWatch.js';
import { StepClock } from './sim/StepClock.js';
import {
  flagGivesWayTo,
  formatState,
  modulusKey,
  parseState,
  runLabel,
  sceneFlags,
  urlValueKeys,
} from './state/urlState.js';
import { Controls } from './ui/Controls.js';
import { CanvasRecorder } from './ui/CanvasRecorder.js';
import { download } from './ui/download.js';
import { DragController } from './ui/DragController.js';
import { foldablePanel } from './ui/foldablePanel.js';
import { keyboardControls } from './ui/KeyboardControls.js';
import { regionColours, showMaterialLegend } from './ui/materialLegend.js';
import { showStrainLegend } from './ui/strainLegend.js';
import { solvedAgainSentence } from './ui/solvedAgain.js';
import { subspaceTrustNote } from './ui/subspaceTrust.js';
import { Plots } from './ui/Plots.js';
import { StatusBoard } from './status.js';

const sceneNames = Object.keys(scenes);
const urlNotices = [];
const urlParameters = new URLSearchParams(location.search);
const urlState = parseState(location.search, sceneNames, urlNotices);
const status = new StatusBoard(document.getElementById('status'), document.getElementById('notices'));
// The URL's moduli (E<region>=) by region as the scenes number them: the URL's key and text, and
// what parseState said of the value. Held until the scene the URL opens says which regions it
// has: a region it lacks is said once as not used, not first as clamped.
const urlModuli = new Map();
for (const [key, text] of urlParameters) {
  const region = modulusKey.exec(key)?.[1];
  if (region !== undefined) urlModuli.set(String(Number(region)), { key, text, notice: null });
}
for (const notice of urlNotices) {
  // parseState's notices start with the URL's key and '=' (urlState.js).
  const region = modulusKey.exec(notice.slice(0, notice.indexOf('=')))?.[1];
  if (region === undefined) status.warn(notice);
  else urlModuli.get(String(Number(region))).notice = notice;
}

const sayUnused = ({ key, text }, why) => status.warn(`${key}=${text}: ${why}; it is not used.`);

/**
 * Says, once, what became of the URL's moduli. regions: the moduli of the scene the URL opened
 * ({ region: Pa }); null when it did not open (then only what parseState said).
 */
function sayUrlModuli(regions, title) {
  for (const [region, modulus] of urlModuli) {
    if (regions && !(region in regions)) sayUnused(modulus, `the scene "${title}" has no region ${region}`);
    else if (modulus.notice) status.warn(modulus.notice);
  }
  urlModuli.clear();
}

/** Says that none of the URL's moduli is used, and why. */
function dropUrlModuli(why) {
  for (const modulus of urlModuli.values()) sayUnused(modulus, why);
  urlModuli.clear();
}
// For automation (tests, scripts driving the page headless): the status, where a point of the
// scene is drawn, the box the view frames, [min, max], and for Your model (ui/yourModel.js)
// paintRegion(center, radius, youngs) and pinRegion(center, radius), and drawnPoint(rest,
// body = 0), where the body's surface vertex nearest the rest point `rest` is drawn now (all set
// once the view exists; with its local deformations' dent where they are on), and dentAt(rest,
// body = 0), that dent alone (m).
window.smfem = {
  get status() {
    return status.snapshot();
  },
  project: null,
  framedBox: null,
  drawnPoint: null,
  dentAt: null,
  paintRegion: null,
  pinRegion: null,
};

const progress = document.getElementById('progress');
const description = document.getElementById('description');
const figureLink = document.getElementById('figure-link');
const legend = document.getElementById('legend');
const trustNote = document.getElementById('trust-note');
document.body.classList.toggle('embed', urlState.embed === true);
const narrowScreen = matchMedia('(max-width: 600px)').matches;
foldablePanel(document.getElementById('panel-toggle'), document.getElementById('panel-body'), {
  folded: narrowScreen,
});

// The report's section that measures what the scene shows (web/public/report/, npm run figures).
function showFigureLink(figure) {
  figureLink.hidden = !figure;
  if (!figure) return;
  const anchor = figureLink.querySelector('a');
  anchor.href = `report/index.html#${figure.id}`;
  anchor.textContent = `Measured in the paper's report: ${figure.label}`;
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
    status.rendering(this.view.quality.kind);
    window.smfem.project = (point) => this.view.project(point);
    window.smfem.framedBox = () => this.view.framedBox();
    window.smfem.drawnPoint = (rest, body = 0) => this.drawnPoint(rest, body);
    window.smfem.dentAt = (rest, body = 0) => this.dentAt(rest, body);
    this.client = new SimulationClient();
    this.retriedSteps = []; // per simulator, since the scene, the reset or the iterations changed
    // The solver's warnings logged, a step's each kind once per scene opened: a step solved
    // again warns every time (705 lines in 8 s of the hundred bodies), and the status line
    // counts those. Also 'energyUnbalanced' once its notice is shown.
    this.loggedWarnings = new Set();
    this.saidThreadsFailed = false;
    // The bar: the scene's assets to 45 %, the wasm module's download (first load only) to 90 %;
    // then compiling it and building the simulators, which say nothing of their progress: the
    // bar turns indeterminate (it moves without a value) until they are done, and goes. So
    // does a download whose size the server did not say.
    this.client.onProgress = (loaded, total) =>
      this.showProgress(total && loaded < total ? 0.45 + (0.45 * loaded) / total : null);
    this.controls = new Controls(document.getElementById('controls'), {
      onPlayPause: () => this.setPaused(!this.paused),
      onStep: () => this.stepOnce(),
      onReset: () => this.reset(),
      onDrop: () => this.drop().catch((e) => status.fail(e)),
      onChange: (change) => this.change(change),
      onScene: (name) => {
        // A scene picked from the list is a page of its own for Back (settings changed on a
        // scene replace its entry).
        this.newHistoryEntry = true;
        this.open(name, {}).catch((e) => {
          this.newHistoryEntry = false;
          status.fail(e);
        });
      },
    });
    this.drag = new DragController(
      this.view,
      (error) => status.fail(error),
      (active) => status.dragging(active),
    );
    keyboardControls(this.view, this.drag);
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
    this.opening = false;
    this.stage = null;
    // Per obstacle the user dragged, { offset: where the hand left it, stepped: whether a step
    // has moved it there since }: what Drop keeps.
    this.obstacleTargets = new Map();
    this.clock = null; // the scene's, once one is open
    this.watchVisibility();
    this.custom = new CustomScene(this, status, urlState.ground === true);
    window.smfem.paintRegion = (center, radius, youngs) => this.custom.paintRegion(center, radius, youngs);
    window.smfem.pinRegion = (center, radius) => this.custom.pinRegion(center, radius);
  }

  // window.smfem.drawnPoint: skinned on the CPU as the shader skins it (skinning.js), or where a
  // shell's vertex is drawn.
  drawnPoint(rest, body) {
    const { surface, offset, u, drawnPositions } = this.stage.bodies[body];
    const { positions, weights, modeCount } = surface;
    const vertex = this.nearestVertex(rest, body);
    const of = (array, size) => array.subarray(size * vertex, size * (vertex + 1));
    const drawn = drawnPositions
      ? of(drawnPositions, 3)
      : skinVertex(of(positions, 3), of(weights, modeCount), u, modeCount);
    const dent = this.dentAt(rest, body);
    return [drawn[0] + dent[0] + offset.x, drawn[1] + dent[1] + offset.y, drawn[2] + dent[2] + offset.z];
  }

  // window.smfem.dentAt: local deformations' dent, drawn on top of the skinning
  // (SkinnedSurface.setDent), at the surface vertex nearest `rest`; [0, 0, 0] without one.
  dentAt(rest, body) {
    const { skinned } = this.stage.bodies[body];
    if (!skinned?.dented) return [0, 0, 0];
    const at = 12 * this.nearestVertex(rest, body);
    return Array.from(skinned.dent.array.subarray(at, at + 3));
  }

  nearestVertex(rest, body) {
    const { positions } = this.stage.bodies[body].surface;
    let nearest = 0;
    let best = Infinity;
    for (let v = 0; v < positions.length / 3; v++) {
      const distance = [0, 1, 2].reduce((sum, k) => sum + (positions[3 * v + k] - rest[k]) ** 2, 0);
      if (distance < best) [nearest, best] = [v, distance];
    }
    return nearest;
  }

  /** fraction: of the whole load, or null where there is no measure (the bar moves without one). */
  showProgress(fraction) {
    progress.hidden = false;
    if (fraction === null) progress.removeAttribute('value');
    else progress.value = Math.max(progress.value, fraction);
  }

  async open(name, overrides) {
    // No steps while the simulators change: an answer of the new ones drawn on the bodies of
    // before froze the page (ticking "side by side" mid-run).
    this.opening = true;
    try {
      await this.openScene(name, overrides);
    } finally {
      this.opening = false;
    }
  }

  async openScene(name, overrides) {
    status.loading(name);
    progress.value = 0;
    this.showProgress(0);
    const scene = scenes[name];
    if (scene.problem) throw new Error(scene.problem);
    const showProgress = (fraction) => this.showProgress(fraction);
    // What every opener may use; each takes what it needs.
    const context = {
      client: this.client,
      showProgress,
      warn: (text) => status.warn(text),
      onObstacleMoved: (index, offset) => this.obstacleMoved(index, offset),
    };
    const onGround = name === 'custom' && this.custom.onGround;
    const opened = scene.lineup
      ? await openLineup(context, name, scene.lineup, overrides)
      : scene.thin
        ? await openThin(context, name, scene.thin, overrides)
        : scene.contact
          ? await openContact(context, name, scene.contact, overrides)
          : onGround
            ? await openOnGround(context, name, scene, overrides)
            : await openBody(context, name, scene, overrides);
    for (const flag of sceneFlags) {
      if (!overrides[flag] || opened.settings[flag]) continue;
      const winner = flagGivesWayTo[flag];
      status.warn(
        winner && opened.settings[winner]
          ? `${flag}=1 gives way to ${winner}=1: it is off.`
          : `${flag}=1 does not apply to the scene "${scene.title}": it is off.`,
      );
    }
    // The URL's values the scene has no setting for (a contact scene's time step, a region the
    // model lacks) are said too, not dropped without a word.
    for (const [key, parameter] of Object.entries(urlValueKeys)) {
      if (overrides[key] !== undefined && !(key in opened.settings)) {
        status.warn(
          `${parameter}=${overrides[key]} does not apply to the scene "${scene.title}": it is not used.`,
        );
      }
    }
    if (overrides === urlState) sayUrlModuli(opened.settings.youngs ?? {}, scene.title);
    if (
      overrides === urlState &&
      overrides.solver !== undefined &&
      opened.settings.solver !== overrides.solver &&
      opened.settings.compare
    ) {
      status.warn(`solver=${overrides.solver} gives way to compare=1: side by side runs MFEM on the left.`);
      this.soloSolver = overrides.solver; // back when side by side is unticked
    }
    this.settings = opened.settings;
    this.meta = opened.meta;
    this.gravityVector = opened.gravityVector;
    this.loggedWarnings.clear();
    this.stage?.dispose();
    this.stage = opened.stage;
    this.contact = Boolean(scene.contact) || onGround;
    this.thinVariant = scene.thin ? opened.mixedVariant : null; // a shell's or rod's MFEM
    this.lineupPages = scene.lineup ? opened.loaded.pages : null;
    this.lineupBodies = scene.lineup?.bodies ?? null;
    this.obstacleTargets.clear();
    if (opened.labels) this.stage.setLabels(opened.labels);
    // The materials the legend names (a scene of several bodies has none).
    const bakedYoungs = opened.controls.defaults?.youngs ?? {};
    this.materials = (opened.controls.materials ?? []).map((m) => ({ ...m, youngs: bakedYoungs[m.region] }));
    this.sampledRegions = opened.controls.sampledRegions ?? [];
    status.labelled(opened.labels ?? []);
    this.view.setBody(this.stage.object, this.stage.bounds, opened.camera, this.stage.floor);
    this.drag.attach(this.stage, opened.dragActions);
    this.show(opened.loaded);
    this.applyViews();
    const names = opened.names;
    this.startRecords(names);
    this.scene = name;
    this.clock = new StepClock({ timestep: opened.timestep, speed: this.settings.speed });
    status.speedIs(this.settings.speed);
    this.runaways = []; // per stepper, lazily
    description.textContent =
      opened.description +
      (this.view.floorKind === 'reference'
        ? ' The floor is drawn for reference only: nothing in this scene collides with it.'
        : '');
    status.floorIs(this.view.floorKind);
    showFigureLink(scene.figure);
    this.controls.build({
      scene: name,
      scenes: Object.entries(scenes).map(([key, s]) => [key, s.title]),
      settings: this.settings,
      paused: this.paused,
      ...opened.controls,
    });
    progress.hidden = true;
    status.ready(
      name,
      opened.loaded,
      names,
      // A thin scene's parts (the bunny three ways) are bodies to the hand, in each copy.
      { bodies: this.stage.bodies.length * (opened.partCount ?? 1), paused: this.paused },
      scene.title,
    );
    this.custom.opened(name); // after ready: the brush's words replace the drag's
    this.sayThreadsFailed(opened.loaded.threadsFailed);
    this.writeUrl();
  }

  writeUrl() {
    // A model baked here lives only in this tab: its URL opens the default scene. A hosted
    // one's URL names the asset.
    const state = {
      ...this.settings,
      scene: this.scene === 'custom' ? undefined : this.scene,
      ...this.custom.urlState(),
      embed: urlState.embed,
      paused: this.paused,
    };
    const url = formatState(state) || location.pathname;
    if (this.newHistoryEntry) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
    this.newHistoryEntry = false;
  }

  async change(change) {
    // Side by side runs MFEM on the left (settingsFor): the solver chosen before comes back
    // when it is unticked (it stayed MFEM, the user's FEM lost).
    if (change.compare === true && !this.contact) this.soloSolver = this.settings.solver;
    if (change.compare === false && this.soloSolver) {
      change = { ...change, solver: this.soloSolver };
      this.soloSolver = undefined;
    }
    // A body shows one side by side at a time: solvers, or local deformations on and off.
    if (change.compare && !this.contact) change = { ...change, compareLocal: false };
    if (change.compareLocal) change = { ...change, compare: false };
    const reopen = ['compare', 'globalOnly', 'local', 'compareLocal'].some((key) => key in change);
    if (reopen || ('against' in change && this.settings.compare)) {
      // Side by side needs a second simulator, local deformations on or off another scene (or
      // a body's asset with its tet mesh): load the scene again.
      Object.assign(this.settings, change);
      await this.open(this.scene, this.settings).catch((e) => status.fail(e));
      return;
    }
    if (change.youngs) change = { youngs: { ...this.settings.youngs, ...change.youngs } };
    Object.assign(this.settings, change);
    // (A contact scene's time step is its file's: only a change sets the clock's.)
    if ('timestep' in change) this.clock.timestep = change.timestep;
    if ('speed' in change) {
      this.clock.speed = change.speed;
      status.speedIs(change.speed);
    }
    this.writeUrl();
    if ('youngs' in change) this.applyViews();
    if ('mode' in change || 'clusters' in change || 'contacts' in change || 'strain' in change) {
      this.applyViews();
      return;
    }
    if (!('speed' in change)) {
      const sets = this.contact
        ? contactParameterSets(this.settings)
        : this.thinVariant
          ? thinParameterSets(this.settings, this.gravityVector, this.thinVariant)
          : this.lineupPages
            ? lineupParameterSets(this.settings, this.gravityVector, this.lineupBodies)
            : parameterSets(this.settings, this.gravityVector);
      await this.client.setParameters(sets).catch((e) => status.fail(e));
      // A modulus or gravity changed moves the energy a step holds: no runaway of the steps'.
      this.runaways = [];
      if ('solver' in change) this.startRecords(this.seriesNames(sets));
      else if ('iterations' in change) this.restartRetried();
      const labels = this.lineupPages
        ? lineupLabels(this.lineupPages, this.settings, this.lineupBodies)
        : this.settings.compare && !this.contact
          ? sets.map(runLabel)
          : null;
      if (labels) {
        this.stage.setLabels(labels);
        this.view.invalidate();
        status.labelled(labels);
      }
    }
  }

  // The plots', CSV's and status's name for each simulator: its solver, and in a lineup its
  // model or its mesh.
  seriesNames(sets) {
    if (this.contact) return contactSeriesNames(this.settings);
    return this.lineupPages
      ? lineupNames(this.lineupPages, sets, this.lineupBodies)
      : bodySeriesNames(this.settings, sets);
  }

  // The plots, the CSV and status name the solvers running: a change of solver starts them anew.
  startRecords(names) {
    this.plots.reset(names, Boolean(this.thinVariant));
    this.restartRetried(names.length);
    status.solversChanged(names);
  }

  // The teaching views: a body's clusters, mode weights or material regions (with their
  // legend, at the moduli the sliders set); a scene's contact points.
  applyViews() {
    const clusters = this.settings.clusters ?? false;
    const mode = this.settings.mode ?? 0;
    const materials = this.materials.map((m) => ({
      ...m,
      youngs: this.settings.youngs?.[m.region] ?? m.youngs,
    }));
    const byMaterial = !clusters && mode === 0 && this.stage.paintsRegions && materials.length > 0;
    const strain = Boolean(this.thinVariant && this.settings.strain);
    this.stage.applyColouring({
      clusters,
      mode,
      regionColours: byMaterial ? regionColours(materials) : null,
      strain,
    });
    if (byMaterial) showMaterialLegend(legend, materials, this.sampledRegions);
    if (strain) showStrainLegend(legend);
    legend.hidden = !byMaterial && !strain;
    const note = subspaceTrustNote(this.materials, this.settings.youngs ?? {}, this.sampledRegions);
    trustNote.textContent = note ?? '';
    trustNote.hidden = !note;
    this.stage.showContacts?.(this.settings.contacts);
    this.view.invalidate();
  }

  // The worker loads its module once: said once, why it runs on one thread where two were chosen.
  sayThreadsFailed(why) {
    if (!why || this.saidThreadsFailed) return;
    this.saidThreadsFailed = true;
    status.warn(`The two-thread solver did not start (${why}); the page runs on one thread, more slowly.`);
  }

  // The status line's count of steps solved again with more iterations, at the current setting.
  sayRetried() {
    status.solvedAgain(solvedAgainSentence(this.plots.solvers, this.retriedSteps, this.settings.iterations));
  }

  // The counts of steps solved again start anew (they count at one setting of the iterations).
  restartRetried(count = this.retriedSteps.length) {
    this.retriedSteps = new Array(count).fill(0);
    this.sayRetried();
  }

  setPaused(paused) {
    if (!paused) this.custom.playing();
    this.paused = paused;
    this.clock?.restart();
    this.controls.setPaused(paused);
    status.pausedChanged(paused);
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
      obstacleOffsets: answer.reports?.map((list) => list.at(-1)?.obstacleOffsets),
      dents: answer.dents,
    });
    // Not under the hand: a body dragged towards the picture's edge would step the camera back,
    // which carries the hand's point further out, and so on.
    if (!this.drag.holding) this.view.keepInView(this.stage.bodies);
    this.view.invalidate();
  }

  async reset() {
    this.obstacleTargets.clear();
    const answer = await this.client.reset();
    this.view.frameHome();
    this.show(answer);
    this.plots.reset(this.plots.solvers);
    this.restartRetried();
    this.runaways = [];
    status.resetTime();
  }

  // An obstacle the user dragged: paused, no step moves it, so it is drawn where the hand is.
  obstacleMoved(index, offset) {
    this.obstacleTargets.set(index, { offset, stepped: false });
    if (!this.paused) return;
    this.stage.placeObstacle(index, offset);
    this.view.invalidate();
  }

  // A scene with contact: the bodies back where they started, in the air; the obstacles the
  // user dragged kept where they were last drawn (not at the hand's target, which the bodies may
  // have held them from; the scene lifts any target beyond the floor out of it), or, moved while
  // paused, where the hand left them.
  async drop() {
    const drawn = status.state.contact?.obstacleOffsets ?? [];
    const kept = [...this.obstacleTargets].map(([index, { offset, stepped }]) => [
      index,
      stepped ? (drawn[index] ?? offset) : offset,
    ]);
    await this.reset();
    for (const [index, offset] of kept) {
      this.obstacleTargets.set(index, { offset, stepped: false });
      await this.client.moveObstacle(index, offset);
      this.stage.placeObstacle(index, offset);
    }
    this.view.invalidate();
  }

  async advance(steps) {
    if (this.inFlight || this.opening) return;
    this.inFlight = true;
    try {
      // The obstacles dragged before these steps were asked for: the steps move them (a drag
      // sent meanwhile is the worker's after them).
      const movedBefore = [...this.obstacleTargets.values()];
      const answer = await this.client.advance(steps);
      for (const target of movedBefore) target.stepped = true;
      // The worker's time for them: timed here, the round trip (50-70 ms in a browser drawing
      // without a graphics card) counted as the steps' cost held every batch to one step, and
      // a 1.3 ms step ran at 0.3 of real time.
      this.clock.observed(answer.seconds, steps);
      for (const warning of answer.warnings ?? []) {
        // A step's warning ("step 12: retried 2 time(s) ...") is one kind whatever its numbers.
        const kind = /^step \d+:/.test(warning) ? warning.replace(/\d+/g, 'N') : warning;
        if (this.loggedWarnings.has(kind)) continue;
        this.loggedWarnings.add(kind);
        console.warn(`smfem: ${warning} (logged once; later ones like it are not)`);
      }
      // Not a step solved again but one no retry could bring back: the picture is not physics.
      // Said as a notice, not on the line: the line goes on saying what runs.
      const unbalanced = answer.reports.some((list) => list.some((report) => report.energyUnbalanced));
      if (unbalanced && !this.loggedWarnings.has('energyUnbalanced')) {
        this.loggedWarnings.add('energyUnbalanced');
        status.warn(
          'Steps gain energy that no retry removes: the motion is not to be trusted at these ' +
            'settings. Try a smaller time step or a stiffer material.',
        );
      }
      status.stepped(answer.reports[0], answer.reports);
      answer.reports.forEach((list, i) => {
        this.retriedSteps[i] += list.filter((r) => r.ok && r.retries > 0).length;
      });
      this.sayRetried();
      this.plots.record(answer.reports);
      // A blow-up, a failed step or energy running away: start the scene over rather than freeze
      // on a broken state, or crawl at seconds a step through one.
      const failed = answer.reports.some((list) => list.some((report) => !report.ok));
      const runaway = answer.reports.some((list, i) =>
        (this.runaways[i] ??= new RunawayWatch()).blownUp(list),
      );
      if (failed || runaway) {
        await this.reset();
        if (!this.loggedWarnings.has('reset')) {
          this.loggedWarnings.add('reset'); // said once, however often it happens again
          status.warn(
            'The simulation became unstable and was reset. Try a smaller time step, more ' +
              'iterations or moduli closer together.',
          );
        }
      } else {
        this.show(answer);
      }
    } catch (error) {
      status.fail(error);
      this.setPaused(true);
    } finally {
      this.inFlight = false;
    }
  }

  // Runs only while visible: a hidden tab stops animation frames; an off-screen embed pauses.
  watchVisibility() {
    const restart = () => {
      this.clock?.restart();
      status.runInterrupted();
    };
    document.addEventListener('visibilitychange', restart);
    new IntersectionObserver(([entry]) => {
      this.onScreen = entry.isIntersecting;
      restart();
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
        if (this.view.renderIfChanged()) status.framed(now);
      }
    };
    requestAnimationFrame(frame);
  }
}

// The gallery's scene the URL names, or the default, with the URL's settings: those of Your model
// (ground=1, and a hosted asset's moduli where it did not open) are said not to apply.
async function openGallery(demo) {
  // "On the ground" is Your model's (its box stays ticked for a model baked later).
  if (urlState.ground) {
    status.warn(
      'ground=1 applies to Your model (baked here, or opened with asset=): the gallery’s scenes keep their own ground.',
    );
  }
  const scene = urlState.scene ?? (narrowScreen ? narrowScreenScene : defaultScene);
  if (!urlState.asset) return demo.open(scene, urlState);
  dropUrlModuli(`asset=${urlState.asset} did not open`);
  const { asset, ground, youngs, ...settings } = urlState;
  return demo.open(scene, settings);
}

async function start() {
  const problems = missingCapabilities();
  if (problems.length) throw new Error(problems.join(' '));
  const demo = new Demo();
  if (!urlState.asset || !(await demo.custom.openHosted(urlState.asset, urlState))) await openGallery(demo);
  sayUrlModuli(null); // what is left when the URL's scene did not open
  demo.run();
}

// Back or Forward to another scene's entry: the page opens what that URL says.
window.addEventListener('popstate', () => location.reload());

start().catch((error) => {
  progress.hidden = true;
  sayUrlModuli(null);
  status.fail(error);
});
