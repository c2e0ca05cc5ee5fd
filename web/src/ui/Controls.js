// The control panel: plain buttons, selects and range inputs, so every control works from the
// keyboard (Tab, Space, arrows) and with assistive technology. Sliders are bounded by the same
// limits the URL parser clamps to; iterations, time step, speed and Young's moduli move on a
// logarithmic scale.
import { materialModelLabels } from '../../../wasm/js/material_models.js';
import { comparedSolvers, limits, solvers } from '../state/urlState.js';
import { sharingButtons } from './sharing.js';

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function formatModulus(pascals) {
  const exponent = Math.floor(Math.log10(pascals));
  const mantissa = pascals / 10 ** exponent;
  return `${mantissa.toFixed(1)}e${exponent} Pa`;
}

const arrowDirections = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 };

// How long a select changed from the keyboard waits before it opens what it shows (ms).
const kKeyedChangeDelay = 800;

/**
 * Calls `open` when `select` changes: at once when picked with a pointer, but from the keyboard
 * (an arrow on a closed select changes it at every press) only once the keys rest for
 * kKeyedChangeDelay, or at Enter, so that arrowing through the scenes does not open each one.
 */
function openOnChange(select, open) {
  let keyed = false;
  let timer = null;
  const openNow = () => {
    clearTimeout(timer);
    timer = null;
    // A panel rebuilt meanwhile (another change opened the scene again) has its own list.
    if (select.isConnected) open();
  };
  select.addEventListener('keydown', (event) => {
    keyed = true;
    if (event.key === 'Enter' && timer !== null) openNow();
  });
  select.addEventListener('pointerdown', () => {
    keyed = false;
  });
  select.addEventListener('change', () => {
    if (!keyed) return openNow();
    clearTimeout(timer);
    timer = setTimeout(openNow, kKeyedChangeDelay);
  });
}

/**
 * A labelled range input; `toValue` / `fromValue` map between slider position and value. A
 * position within half a step of `preferred`'s (the scene's default) gives `preferred` itself:
 * the slider's grid would otherwise never return to it. Assistive technology is told the value
 * in words (`says`, else as shown), not the slider's position. `arrowKey(value, direction)`, if given,
 * is the value an arrow key moves to (a logarithmic slider's step is a sliver of a decade).
 */
function slider({
  label,
  id,
  min,
  max,
  step,
  value,
  format,
  says = format,
  toValue = (x) => x,
  fromValue = (x) => x,
  preferred,
  arrowKey,
  onInput,
}) {
  const input = element('input', { type: 'range', id, min, max, step, value: fromValue(value) });
  // Shown, not read out: an output is a live region of its own, and the slider says its value.
  const output = element('output', { for: id, text: format(value), 'aria-hidden': 'true' });
  const show = (next) => {
    output.textContent = format(next);
    input.setAttribute('aria-valuetext', says(next));
  };
  show(value);
  let current = value;
  const choose = (next) => {
    current = next;
    show(next);
    onInput(next);
  };
  input.addEventListener('input', () => {
    const position = Number(input.value);
    const snaps = preferred !== undefined && Math.abs(position - fromValue(preferred)) <= step / 2;
    // An end of the track is the range's end, not the grid's last position before it (from the
    // least speed by 0.01 of a decade the track ended at 3.97, not 4).
    const end = max - position < 0.999 * step ? max : position <= min + step / 2 ? min : null;
    const value = end === null ? toValue(position) : Number(toValue(end).toPrecision(12));
    choose(snaps ? preferred : value);
  });
  if (arrowKey) {
    input.addEventListener('keydown', (event) => {
      const direction = arrowDirections[event.key];
      if (!direction) return;
      event.preventDefault();
      const next = arrowKey(current, direction);
      if (next === current) return;
      input.value = fromValue(next);
      choose(next);
    });
  }
  const set = (next) => {
    current = next;
    input.value = fromValue(next);
    show(next);
  };
  return {
    node: element('label', { class: 'control' }, [element('span', { text: label }), input, output]),
    set,
  };
}

// The rows of local deformations (paper 001): a box that turns them on, and one that runs the
// scene with and without them side by side; side by side the left copy has them and the right
// does not, so the first box stays ticked.
function localRows({ on, besides, onLocal, onBesides }) {
  const local = element('input', { type: 'checkbox', id: 'local-deformations' });
  local.checked = on;
  local.disabled = besides;
  local.addEventListener('change', () => onLocal(local.checked));
  const compared = element('input', { type: 'checkbox', id: 'compare-local' });
  compared.checked = besides;
  compared.addEventListener('change', () => onBesides(compared.checked));
  return [
    element('div', { class: 'row' }, [element('label', { class: 'toggle' }, [local, ' Local deformations'])]),
    element('div', { class: 'row' }, [
      element('label', { class: 'toggle' }, [compared, ' Side by side without them']),
    ]),
  ];
}

export class Controls {
  /**
   * @param root the element to fill
   * @param handlers { onPlayPause, onStep, onReset, onDrop, onChange(partialSettings), onScene(name) }
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
  }

  /**
   * Rebuilds the panel for a scene. settings: { solver, iterations, timestep, speed, gravity,
   * mode, youngs: { region: Pa }, contacts }; materials: [{ name, region }]; scenes: [[name,
   * title]]; modeCount: m; hasClusters: whether the asset has the cluster view's data; contact:
   * a scene with contact (its time step and gravity are the file's; it has no solvers side by side
   * and no views of one body's modes, but a Drop button and its contact points); sampledRegions: the
   * regions a cubature tet samples (a material elsewhere has no slider: the solver never sees it);
   * defaults: the scene's { timestep, gravity, youngs: { region: Pa } }, which the sliders return
   * to exactly; eigenFit: the asset's EigenFit (loader.d.ts: SimulatorInfo.eigenFit) or null,
   * with a checkbox (settings.eigenFit) where there is one; lineup: several bodies already side
   * by side (no side-by-side toggle); modelPerBody: each body runs its own material model (no
   * material-model choice); thin: a shell or a rod (side by side, iterations, time step, speed,
   * gravity, a modulus per part and a colour by edge strain; no material model or mode views);
   * localDeformations: the scene can run local deformations, with a checkbox that turns them on
   * and one that runs the scene with and without them side by side: a scene with contact whose
   * file asks a body for them (on unless settings.globalOnly; side by side: settings.compare), or
   * a body baked with its tet mesh (settings.local; side by side: settings.compareLocal).
   */
  build(options) {
    // The control that had the focus keeps it (found by its id) in the panel rebuilt for the
    // change it made: keyboard users were sent back to the page's start after every change.
    const focused = this.root.contains(document.activeElement) ? document.activeElement.id : '';
    this.buildPanel(options);
    if (focused) this.root.querySelector(`#${CSS.escape(focused)}`)?.focus();
  }

  buildPanel({
    scene,
    scenes,
    settings,
    materials = [],
    sampledRegions = [],
    defaults = {},
    modeCount = 0,
    hasClusters = false,
    eigenFit = null,
    paused,
    contact = false,
    localDeformations = false,
    lineup = false,
    modelPerBody = false,
    thin = false,
  }) {
    const { handlers } = this;
    this.root.replaceChildren();

    const sceneSelect = element(
      'select',
      { id: 'scene-select', 'aria-label': 'scene' },
      scenes.map(([name, title]) => element('option', { value: name, text: title })),
    );
    sceneSelect.value = scene;
    openOnChange(sceneSelect, () => handlers.onScene(sceneSelect.value));

    this.playButton = element('button', { type: 'button', id: 'play' });
    this.setPaused(paused);
    this.playButton.addEventListener('click', () => handlers.onPlayPause());
    const stepButton = element('button', { type: 'button', id: 'step', text: 'Step' });
    stepButton.addEventListener('click', () => handlers.onStep());
    const resetButton = element('button', { type: 'button', id: 'reset', text: 'Reset' });
    resetButton.addEventListener('click', () => handlers.onReset());

    const solverSelect = element(
      'select',
      { id: 'solver', 'aria-label': 'solver' },
      Object.entries(solvers).map(([name, { label }]) => element('option', { value: name, text: label })),
    );
    solverSelect.value = settings.solver;
    solverSelect.disabled = settings.compare && !contact; // a contact scene's copies share it
    solverSelect.addEventListener('change', () => handlers.onChange({ solver: solverSelect.value }));
    const modelSelect = element(
      'select',
      { id: 'material-model', 'aria-label': 'material model' },
      Object.entries(materialModelLabels).map(([model, label]) =>
        element('option', { value: model, text: label }),
      ),
    );
    modelSelect.value = settings.materialModel;
    modelSelect.addEventListener('change', () => handlers.onChange({ materialModel: modelSelect.value }));
    // The paper's central comparison, live: both solvers on the same scene in lockstep.
    const compare = element('input', { type: 'checkbox', id: 'compare' });
    compare.checked = settings.compare;
    compare.addEventListener('change', () => handlers.onChange({ compare: compare.checked }));
    const compareLabel = element('label', { class: 'toggle' }, [compare, ' MFEM side by side with']);
    const againstSelect = element(
      'select',
      { id: 'against', 'aria-label': 'side by side with' },
      comparedSolvers.map((name) => element('option', { value: name, text: solvers[name].label })),
    );
    againstSelect.value = settings.against;
    againstSelect.disabled = !settings.compare;
    againstSelect.addEventListener('change', () => handlers.onChange({ against: againstSelect.value }));
    // Teaching views: where each skinning mode acts (blue negative, red positive weights), and
    // what the cubature samples (its clusters, and the representative tets as dots).
    const modeSelect = element('select', { id: 'colour-mode', 'aria-label': 'colour by' }, [
      element('option', { value: '0', text: 'Colour: material' }),
      ...(hasClusters ? [element('option', { value: 'clusters', text: 'Colour: cubature clusters' })] : []),
      ...Array.from({ length: modeCount }, (_, i) =>
        element('option', { value: String(i + 1), text: `Colour: weight of mode ${i + 1}` }),
      ),
    ]);
    modeSelect.value =
      settings.clusters && hasClusters ? 'clusters' : String(Math.min(settings.mode, modeCount));
    modeSelect.addEventListener('change', () =>
      handlers.onChange(
        modeSelect.value === 'clusters'
          ? { clusters: true, mode: 0 }
          : { clusters: false, mode: Number(modeSelect.value) },
      ),
    );

    const iterations = () =>
      slider({
        label: 'Iterations',
        id: 'iterations',
        // On a logarithmic scale, whole numbers: the stepper takes up to 200, and 1 to 5 (where
        // the solvers differ) keep most of the slider.
        min: Math.log10(limits.iterations.min),
        max: Math.log10(limits.iterations.max),
        step: 0.01,
        value: settings.iterations,
        format: (v) => String(v),
        says: (v) => `${v} iteration${v === 1 ? '' : 's'}`,
        toValue: (x) => Math.round(10 ** x),
        fromValue: Math.log10,
        arrowKey: (v, direction) =>
          Math.min(limits.iterations.max, Math.max(limits.iterations.min, v + direction)),
        onInput: (iterations) => handlers.onChange({ iterations }),
      });
    const timestep = () =>
      slider({
        label: 'Time step',
        id: 'timestep',
        min: Math.log10(limits.timestep.min),
        max: Math.log10(limits.timestep.max),
        step: 0.01,
        value: settings.timestep,
        format: (v) => `${v >= 1e-3 ? (v * 1000).toFixed(1) : Number((v * 1000).toPrecision(2))} ms`,
        toValue: (x) => 10 ** x,
        fromValue: Math.log10,
        preferred: defaults.timestep,
        onInput: (timestep) => handlers.onChange({ timestep }),
      });
    const speed = () =>
      slider({
        label: 'Speed',
        id: 'speed',
        min: Math.log10(limits.speed.min),
        max: Math.log10(limits.speed.max),
        step: 0.01,
        value: settings.speed,
        format: (v) => `${v.toFixed(2)}x`,
        toValue: (x) => 10 ** x,
        fromValue: Math.log10,
        preferred: 1,
        onInput: (speed) => handlers.onChange({ speed }),
      });
    const gravity = () =>
      slider({
        label: 'Gravity',
        id: 'gravity',
        ...limits.gravity,
        step: 0.1,
        value: settings.gravity,
        format: (v) => `${v.toFixed(1)} m/s²`,
        preferred: defaults.gravity,
        onInput: (gravity) => handlers.onChange({ gravity }),
      });
    const sampled = materials.filter(({ region }) => sampledRegions.includes(region));
    const unsampled = materials.filter(({ region }) => !sampledRegions.includes(region));
    const youngs = () =>
      sampled.map(({ name, region }) =>
        slider({
          label: `E ${name}`,
          id: `youngs-${region}`,
          min: Math.log10(limits.youngs.min),
          max: Math.log10(limits.youngs.max),
          step: 0.05,
          value: settings.youngs[region],
          format: formatModulus,
          toValue: (x) => 10 ** x,
          fromValue: Math.log10,
          preferred: defaults.youngs?.[region],
          onInput: (youngs) => handlers.onChange({ youngs: { [region]: youngs } }),
        }),
      );

    const sharing = element('div', { class: 'row sharing' }, sharingButtons(document.getElementById('app')));
    if (contact) {
      const dropButton = element('button', { type: 'button', id: 'drop', text: 'Drop' });
      dropButton.addEventListener('click', () => handlers.onDrop());
      const contacts = element('input', { type: 'checkbox', id: 'contacts' });
      contacts.checked = settings.contacts;
      contacts.addEventListener('change', () => handlers.onChange({ contacts: contacts.checked }));
      this.root.append(
        element('div', { class: 'row' }, [sceneSelect]),
        element('div', { class: 'row' }, [this.playButton, stepButton, resetButton, dropButton]),
        element('div', { class: 'row' }, [solverSelect]),
        element('div', { class: 'row' }, [
          element('label', { class: 'toggle' }, [contacts, ' Show contact points']),
        ]),
        ...(localDeformations
          ? localRows({
              on: !settings.globalOnly,
              besides: settings.compare,
              onLocal: (on) => handlers.onChange({ globalOnly: !on }),
              onBesides: (on) => handlers.onChange({ compare: on }),
            })
          : []),
        iterations().node,
        speed().node,
        sharing,
      );
      return;
    }
    if (thin) {
      const strainSelect = element('select', { id: 'colour-mode', 'aria-label': 'colour by' }, [
        element('option', { value: 'solver', text: 'Colour: solver' }),
        element('option', { value: 'strain', text: 'Colour: edge strain' }),
      ]);
      strainSelect.value = settings.strain ? 'strain' : 'solver';
      strainSelect.addEventListener('change', () =>
        handlers.onChange({ strain: strainSelect.value === 'strain' }),
      );
      this.root.append(
        element('div', { class: 'row' }, [sceneSelect]),
        element('div', { class: 'row' }, [this.playButton, stepButton, resetButton]),
        element('div', { class: 'row' }, [solverSelect]),
        element('div', { class: 'row' }, [compareLabel, againstSelect]),
        element('div', { class: 'row' }, [strainSelect]),
        ...[iterations(), timestep(), speed(), gravity(), ...youngs()].map((s) => s.node),
        sharing,
      );
      return;
    }
    // EigenFit: the leading modes' frequencies moved to a finer mesh's (smfem-bake --eigenfit).
    const fitRow = [];
    if (eigenFit) {
      const fit = element('input', { type: 'checkbox', id: 'eigenfit' });
      fit.checked = settings.eigenFit !== false;
      fit.addEventListener('change', () => handlers.onChange({ eigenFit: fit.checked }));
      const hz = (values) => values.map((f) => f.toFixed(2)).join(', ');
      const label = element('label', { class: 'toggle' }, [fit, ` EigenFit (${eigenFit.modes} modes)`]);
      label.title = `Frequencies ${hz(eigenFit.coarseHz)} Hz become the fine mesh's ${hz(eigenFit.fineHz)} Hz`;
      fitRow.push(element('div', { class: 'row' }, [label]));
    }
    this.root.append(
      element('div', { class: 'row' }, [sceneSelect]),
      element('div', { class: 'row' }, [this.playButton, stepButton, resetButton]),
      element('div', { class: 'row' }, [solverSelect]),
      // (A lineup is already side by side: its bodies are the scene.)
      ...(lineup ? [] : [element('div', { class: 'row' }, [compareLabel, againstSelect])]),
      ...(modelPerBody ? [] : [element('div', { class: 'row' }, [modelSelect])]),
      ...fitRow,
      ...(localDeformations
        ? localRows({
            on: settings.local || settings.compareLocal,
            besides: settings.compareLocal,
            onLocal: (on) => handlers.onChange({ local: on }),
            onBesides: (on) => handlers.onChange({ compareLocal: on }),
          })
        : []),
      element('div', { class: 'row' }, [modeSelect]),
      ...[iterations(), timestep(), speed(), gravity(), ...youngs()].map((s) => s.node),
      ...(unsampled.length
        ? [
            element('p', {
              class: 'unsampled',
              text:
                `No cubature tet samples ${unsampled.map((m) => m.name).join(', ')}: the solver never ` +
                'sees that material, so it has no slider.',
            }),
          ]
        : []),
      sharing,
    );
  }

  setPaused(paused) {
    this.playButton.textContent = paused ? 'Play' : 'Pause';
    this.playButton.setAttribute('aria-pressed', String(!paused));
  }
}
