// How far the baked subspace can be trusted as the moduli sliders move. Skinning eigenmodes
// depend on the materials' stiffness ratios only (scaling every modulus alike leaves them
// unchanged), so the measure is how much the ratios moved from the baked ones: the spread of
// log10(E now / E baked) over the regions the solver sees. Beyond a decade, the modes were
// computed for a body that bends elsewhere, and the page says so.
const trustedDecades = 1;

/**
 * A sentence for the page when the moduli left the subspace's trusted range, else null.
 * baked: [{ name, region, youngs }] (the asset's materials); youngs: { region: Pa } now;
 * sampledRegions: the regions some cubature tet samples.
 */
export function subspaceTrustNote(baked, youngs, sampledRegions) {
  const seen = baked.filter((m) => sampledRegions.includes(m.region) && youngs[m.region] > 0);
  if (seen.length < 2) return null;
  const shifts = seen.map((m) => Math.log10(youngs[m.region] / m.youngs));
  const spread = Math.max(...shifts) - Math.min(...shifts);
  if (spread <= trustedDecades) return null;
  const softest = seen.reduce((a, b) => (b.youngs < a.youngs ? b : a));
  const stiffest = seen.reduce((a, b) => (b.youngs > a.youngs ? b : a));
  const bakedRatio = stiffest.youngs / softest.youngs;
  return (
    `The skinning modes were baked for ${stiffest.name} ${bakedRatio.toExponential(0).replace('e+', 'e')} times ` +
    `stiffer than ${softest.name}; the moduli now change that pattern by ${(10 ** spread).toExponential(0).replace('e+', 'e')}×, ` +
    'beyond the decade the subspace is trusted for: it may bend where the body used to be soft. ' +
    'Scaling every modulus alike is safe; for these ratios, bake the scene again.'
  );
}
