// A bar per stage of a bake in the page (BakeClient's stages): a stage done is full, the one
// running moves without a value (the bake says when a stage starts, not how far it is), the rest
// are empty.

// The stages shown, each with BakeClient's names of it.
const shown = [
  { label: 'mesh', stages: ['read', 'tetrahedralize'] },
  { label: 'eigenmodes', stages: ['eigenmodes'] },
  { label: 'cubature', stages: ['cubature'] },
  { label: 'write', stages: ['render', 'write'] },
];

/** Fills `list` (an <ol>) with the bars; returns show({ stage }), which sets them. */
export function bakeStages(list) {
  const bars = shown.map(({ label }) => {
    const item = document.createElement('li');
    const bar = document.createElement('progress');
    bar.max = 1;
    bar.value = 0;
    const name = document.createElement('span');
    name.textContent = label;
    bar.setAttribute('aria-label', label);
    item.append(bar, name);
    list.append(item);
    return bar;
  });
  return function show({ stage }) {
    const running = shown.findIndex(({ stages }) => stages.includes(stage));
    bars.forEach((bar, k) => {
      if (stage === 'done' || k < running) bar.value = 1;
      else if (k === running) bar.removeAttribute('value');
      else bar.value = 0;
    });
  };
}
