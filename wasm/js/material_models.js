// The material models the stepper offers, by the names its parameters take
// (sim/material_model.hpp; tests/wasm/simulator.test.js checks that it accepts exactly these),
// with the names people read: the page's controls and the report use these.
export const materialModelLabels = {
  arap: 'ARAP',
  fixed_corotational: 'Fixed corotational',
  stable_neo_hookean: 'Stable neo-Hookean',
};
