// "Colour: material": each material region painted by its Young's modulus on a log scale, and a
// legend over the view naming every region with its modulus under a colour bar, so a student
// sees where the body is stiff (the crab's 1e10 Pa shell against its 1e6 Pa joints).
import { rampColour, rampGradient } from './colourRamp.js';

/** The log10 range of the moduli, widened to a decade where they all agree. */
function logRange(moduli) {
  const logs = moduli.map(Math.log10);
  const lo = Math.min(...logs),
    hi = Math.max(...logs);
  return hi - lo < 1e-9 ? { lo: lo - 0.5, hi: hi + 0.5 } : { lo, hi };
}

/** region -> THREE.Color for materials [{ region, youngs }]. */
export function regionColours(materials) {
  const { lo, hi } = logRange(materials.map((m) => m.youngs));
  return new Map(materials.map((m) => [m.region, rampColour((Math.log10(m.youngs) - lo) / (hi - lo))]));
}

const pascals = (E) => `${E.toExponential(1).replace('e+', 'e')} Pa`;

/**
 * Fills `element` with the legend: a log-scale colour bar from the softest to the stiffest
 * modulus and one row per region (swatch, name, E); regions no cubature tet samples say so.
 * materials: [{ name, region, youngs }]; sampledRegions: the regions the solver sees.
 */
export function showMaterialLegend(element, materials, sampledRegions) {
  const colours = regionColours(materials);
  const { lo, hi } = logRange(materials.map((m) => m.youngs));
  element.replaceChildren();
  const title = document.createElement('div');
  title.className = 'legend-title';
  title.textContent = 'Young’s modulus (log scale)';
  const bar = document.createElement('div');
  bar.className = 'legend-bar';
  bar.style.background = rampGradient();
  const ends = document.createElement('div');
  ends.className = 'legend-ends';
  ends.append(
    ...[lo, hi].map((x) => Object.assign(document.createElement('span'), { textContent: pascals(10 ** x) })),
  );
  element.append(title, bar, ends);
  for (const m of materials) {
    const row = document.createElement('div');
    row.className = 'legend-row';
    const swatch = document.createElement('span');
    swatch.className = 'legend-swatch';
    swatch.style.background = `#${colours.get(m.region).getHexString()}`;
    const sampled = sampledRegions.includes(m.region);
    row.append(
      swatch,
      `${m.name}: ${pascals(m.youngs)}${sampled ? '' : ' (no cubature tet: not simulated)'}`,
    );
    element.append(row);
  }
  element.hidden = false;
}
