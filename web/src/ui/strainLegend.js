// The legend of "Colour: edge strain" (render/edgeStrain.js): the colour bar over the strain's
// log scale, its ends named.
import { strainScale } from '../render/edgeStrain.js';
import { rampGradient } from './colourRamp.js';

/** Fills `element` with the strain view's legend. */
export function showStrainLegend(element) {
  const title = Object.assign(document.createElement('div'), {
    className: 'legend-title',
    textContent: 'Edge strain |l / L - 1| (log scale)',
  });
  const bar = Object.assign(document.createElement('div'), { className: 'legend-bar' });
  bar.style.background = rampGradient();
  const ends = Object.assign(document.createElement('div'), { className: 'legend-ends' });
  const written = (x) => x.toExponential(0).replace('e+', 'e');
  ends.append(
    ...[`${written(strainScale.low)} or less`, `${written(strainScale.high)} or more`].map((text) =>
      Object.assign(document.createElement('span'), { textContent: text }),
    ),
  );
  element.replaceChildren(title, bar, ends);
  element.hidden = false;
}
