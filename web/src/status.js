// The page's status: a line for people and a read-only object for automation
// (window.smfem.status): ready, scene, build, render (how finely the view draws: 'light' in a
// browser without a graphics card, else 'full'; render/renderQuality.js), frame, simTime,
// stepMs (median of the recent steps), fps, lastError, and dragging (a pointer holds a body or an obstacle), solvers (one per
// body shown), firstFrameMs (from navigation to the first frame drawn after a simulated step),
// contact (a scene with contact, after its last step: minDistance, activeContacts,
// obstacleOffsets, each body's centroid and localPatches, asleep (how many bodies sleep) and stepsPerSecond (the
// steps the recent wall-clock seconds took, as the line says it); null otherwise), contacts (the
// same for each copy of a contact scene side by side, the first being contact; empty otherwise), notices (every input the page
// refused or changed, in words; each is also shown until dismissed), labels (side by side, what
// each body is labelled with on the canvas; empty otherwise), motion (the first body after its
// last step: kinetic and elastic energy in J, centroid in m and the local patches attached, so that a
// script can tell whether a setting changed what the body does; null before a step), bake (the last bake of
// the user's own model: stage, progress in [0, 1], ms since it started, tets, error, and once
// done modes, cubature, pinned and build, the bake module's; null before one).
const recent = 120; // steps and frames the medians look back over
const rateWindow = 2; // s of wall clock the rate and the share of real time look back over
const leastRateSpan = 1; // s of wall clock running before they are said

// What status.contact says of a scene with contact after its last step (`last`, a StepReport).
// A shell or a rod among obstacles reports the contact fields of one body, never asleep.
function contactSummary(last) {
  const { minDistance, activeContacts, obstacleOffsets, bodies = [last], asleep = 0 } = last;
  return {
    minDistance,
    activeContacts,
    obstacleOffsets,
    centroids: bodies.map((b) => b.centroid),
    localPatches: bodies.map((b) => b.localPatches ?? 0),
    asleep,
  };
}

function median(values) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : 0.5 * (sorted[middle - 1] + sorted[middle]);
}

/**
 * The line's running figures: how many steps the page took a second of wall clock lately (null:
 * not running long enough to say), with the simulated seconds a second of wall clock (realTime)
 * where the motion is shown slower than it happens, and how many bodies of a scene with contact
 * sleep; '' where there is nothing to say.
 */
export function rateSentence(stepsPerSecond, asleep, bodies, realTime = null, speed = 1) {
  const parts = [];
  if (stepsPerSecond !== null) {
    // Behind the speed asked (1: real time): said so, in real time's terms.
    const behind = realTime !== null && realTime < 0.95 * speed;
    const slow = !behind
      ? ''
      : speed === 1
        ? ` (slow motion: ${realTime.toFixed(2)} of real time)`
        : ` (${realTime.toFixed(2)} of real time, behind the speed asked)`;
    parts.push(`It steps ${Math.round(stepsPerSecond)} times a second${slow}`);
  }
  if (asleep > 0) parts.push(`${asleep} of ${bodies} bodies are at rest and asleep`);
  return parts.length ? `${parts.join('; ')}.` : '';
}

export class StatusBoard {
  /**
   * line: the status line, holding a live region (role=status, in the page from the start so
   * that its first change is read out); noticeList: a list element for the notices. The live
   * region says what happens, read out when it changes; after it the line's running figures (the
   * rate, the sleepers, the steps solved again), which change a few times a second and are not
   * read out unasked.
   */
  constructor(line, noticeList) {
    this.line = line;
    this.words = line.querySelector('[role=status]');
    this.figures = document.createElement('span');
    this.line.append(this.figures);
    this.noticeList = noticeList;
    this.state = {
      ready: false,
      scene: null,
      build: null,
      render: null,
      frame: 0,
      simTime: 0,
      stepMs: null,
      fps: null,
      lastError: null,
      dragging: false,
      solvers: [],
      firstFrameMs: null,
      contact: null,
      contacts: [],
      notices: [],
      labels: [],
      floor: null, // 'obstacle' (a contact scene's floor) or 'reference' (only drawn)
      motion: null,
      bake: null,
    };
    this.stepTimes = [];
    this.progress = []; // { wall, time, steps } after each batch while running (rate())
    this.speed = 1; // the speed asked (speedIs)
    this.stepCount = 0;
    this.frameTimes = [];
    this.rateWords = '';
    this.againWords = '';
  }

  rendering(kind) {
    this.state.render = kind;
  }

  snapshot() {
    return { ...this.state, notices: [...this.state.notices] };
  }

  /**
   * An input refused or changed: said in a dismissible notice and kept in status.notices. kind:
   * what the notice is about ('bake': a model that did not bake, or what a bake warned of), for dismissNotices.
   */
  warn(text, kind = null) {
    this.state.notices.push(text);
    const item = document.createElement('li');
    if (kind) item.dataset.kind = kind;
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.textContent = '×';
    dismiss.setAttribute('aria-label', 'dismiss this notice');
    dismiss.addEventListener('click', () => {
      item.remove();
      this.noticeList.hidden = !this.noticeList.children.length;
    });
    item.append(document.createTextNode(text), dismiss);
    this.noticeList.append(item);
    this.noticeList.hidden = false;
  }

  /** Takes the notices of `kind` off the page (status.notices keeps them): they no longer hold. */
  dismissNotices(kind) {
    for (const item of [...this.noticeList.children]) if (item.dataset.kind === kind) item.remove();
    this.noticeList.hidden = !this.noticeList.children.length;
  }

  say(text, isError = false, figures = '') {
    // Only a change: text set again, even the same, is a new node a screen reader may read out.
    if (this.words.textContent !== text) this.words.textContent = text;
    const shown = figures && ` ${figures}`;
    if (this.figures.textContent !== shown) this.figures.textContent = shown;
    this.line.classList.toggle('error', isError);
  }

  loading(scene) {
    Object.assign(this.state, {
      ready: false,
      scene,
      simTime: 0,
      stepMs: null,
      contact: null,
      contacts: [],
      motion: null,
    });
    this.stepTimes = [];
    this.progress = [];
    this.sentence = null;
    this.say(`Loading ${scene}…`);
  }

  /**
   * bodies: how many the view shows (a drag pulls any of them); paused: whether the page is
   * paused as the scene opens; title: what the line calls the scene (its gallery title, "Your model: bunny"; else
   * its key).
   */
  ready(scene, { build, threadsFailed }, solvers, { bodies = 1, paused = false } = {}, title = scene) {
    Object.assign(this.state, { ready: true, scene, build, solvers });
    // Said for a student: where the simulation runs, not which build of the module it is.
    const where =
      build === 'threads'
        ? 'on two threads'
        : threadsFailed
          ? 'on one thread (the two-thread solver did not start)'
          : 'on one thread (the page is not cross-origin isolated)';
    this.dragWords = `Drag ${bodies > 1 ? 'any body' : 'it'} with the mouse or a finger.`;
    this.hand = this.dragWords;
    this.sentence = (state) => `${title} is ${state} in your browser ${where}. ${this.hand}`;
    this.paused = paused;
    this.againWords = '';
    this.saidAt = null;
    this.runInterrupted(); // a batch of the scene before may have come back since loading()
    this.sayRunning();
  }

  /** Your model's brush changed ('drag', 'paint' or 'pin'): the line says what a click does. */
  brushIs(tool) {
    const ours = this.saysRunning();
    this.hand =
      tool === 'paint'
        ? "Click on it to paint the brush's material; play to drag it again."
        : tool === 'pin'
          ? 'Click on it to pin the vertices under the brush; play to drag it again.'
          : this.dragWords;
    if (ours) this.sayRunning();
  }

  /** Play or Pause pressed: the line says which, if it is the line's own. */
  pausedChanged(paused) {
    const ours = this.saysRunning();
    this.paused = paused;
    this.runInterrupted();
    if (ours) this.sayRunning();
  }

  get running() {
    return this.sentence?.(this.paused ? 'paused' : 'running') ?? null;
  }

  // Whether the line says what runs (not a notice or an error that came since).
  saysRunning() {
    return this.state.ready && this.running !== null && this.words.textContent === this.running;
  }

  labelled(labels) {
    this.state.labels = labels;
  }

  floorIs(kind) {
    this.state.floor = kind;
  }

  solversChanged(solvers) {
    this.state.solvers = solvers;
  }

  /**
   * reports: the steps just taken (StepReport of loader.d.ts), oldest first, of the first
   * stepper; all: every stepper's (side by side: a contact scene's copies, each in contacts).
   */
  stepped(reports, all = [reports]) {
    const last = reports.at(-1);
    if (last) {
      this.state.simTime = last.time;
      const { kinetic, elastic } = last.energy;
      this.state.motion = { kinetic, elastic, centroid: last.centroid, localPatches: last.localPatches ?? 0 };
    }
    this.stepTimes.push(...reports.map((r) => r.stepMs));
    this.stepTimes.splice(0, Math.max(0, this.stepTimes.length - recent));
    this.state.stepMs = median(this.stepTimes);
    const { stepsPerSecond, realTime } = this.rate(reports);
    let asleep = 0;
    if (last?.minDistance !== undefined) {
      this.state.contacts = all.map((list) => ({ ...contactSummary(list.at(-1)), stepsPerSecond }));
      this.state.contact = this.state.contacts[0];
      asleep = this.state.contact.asleep;
    }
    this.rateWords = rateSentence(stepsPerSecond, asleep, last?.bodies?.length ?? 1, realTime, this.speed);
    if (last) this.sayCurrent(last.time);
  }

  // The steps a second of wall clock and the simulated seconds a second of wall clock over the last
  // rateWindow seconds of running, after `reports` (null before leastRateSpan of them): what the
  // page shows, not what the solver could (a step's cost says nothing of the frames between).
  rate(reports) {
    this.stepCount += reports.length;
    if (this.paused) {
      this.runInterrupted(); // single steps while paused: no rate
      return { stepsPerSecond: null, realTime: null };
    }
    const now = performance.now() / 1000;
    const last = reports.at(-1);
    // Time gone back: a reset, or the last batch of the scene before.
    if (last && last.time < (this.progress.at(-1)?.time ?? -Infinity)) this.progress = [];
    if (last) this.progress.push({ wall: now, time: last.time, steps: this.stepCount });
    while (this.progress.length > 2 && now - this.progress[1].wall >= rateWindow) this.progress.shift();
    const first = this.progress[0];
    const span = now - (first?.wall ?? now);
    if (span < leastRateSpan) return { stepsPerSecond: null, realTime: null };
    return {
      stepsPerSecond: (this.stepCount - first.steps) / span,
      realTime: (this.progress.at(-1).time - first.time) / span,
    };
  }

  /** sentence: how many steps were solved again with more iterations, in words ('' for none). */
  solvedAgain(sentence) {
    if (sentence === this.againWords) return;
    this.againWords = sentence;
    this.sayCurrent(null);
  }

  // The line, kept current a few times a simulated second (time: of the last step; null: now):
  // what runs, its rate and sleepers (with contact), and the steps solved again. Only over the
  // line's own words: a notice or an error stays until something replaces it.
  sayCurrent(time) {
    if (!this.saysRunning()) return;
    if (time !== null && time - (this.saidAt ?? -1) < 0.25) return;
    if (time !== null) this.saidAt = time;
    this.sayRunning();
  }

  sayRunning() {
    this.say(this.running, false, [this.rateWords, this.againWords].filter(Boolean).join(' '));
  }

  /** The simulated seconds a wall-clock second the page is asked for (the Speed slider). */
  speedIs(speed) {
    this.speed = speed;
    this.runInterrupted();
  }

  /** The run stopped for a while (paused, hidden, off-screen): no slow motion, and no rate yet. */
  runInterrupted() {
    this.progress = [];
    this.rateWords = '';
  }

  resetTime() {
    this.saidAt = null;
    this.state.simTime = 0;
    this.state.contact = null;
    this.state.contacts = [];
    this.state.motion = null;
  }

  /** now: the frame's time stamp (requestAnimationFrame's, from navigation start), ms. */
  framed(now) {
    this.state.frame += 1;
    if (this.state.firstFrameMs === null && this.state.simTime > 0) this.state.firstFrameMs = now;
    this.frameTimes.push(now);
    this.frameTimes.splice(0, Math.max(0, this.frameTimes.length - recent));
    const span = (this.frameTimes.at(-1) - this.frameTimes[0]) / 1000;
    if (span > 0) this.state.fps = (this.frameTimes.length - 1) / span;
  }

  /** A bake of the user's model: { stage, progress, ms, tets, error } (bake/BakeClient.js). */
  baking(bake) {
    this.state.bake = bake;
    // A failed bake's notice says why; the line goes back to the scene that still runs.
    if (bake.error) {
      if (this.running) this.sayRunning();
      return;
    }
    const tets = bake.tets ? ` (${bake.tets} tets)` : '';
    this.say(bake.stage === 'done' ? `Baked your model${tets}.` : `Baking your model: ${bake.stage}${tets}…`);
  }

  dragging(active) {
    this.state.dragging = active;
  }

  notice(text) {
    this.say(text);
  }

  fail(error) {
    this.state.lastError = String(error?.message ?? error);
    this.say(this.state.lastError, true);
    console.error(error);
  }
}
