// What the page needs from the browser, checked before anything loads, so a missing feature
// gives a sentence instead of a blank page.

// A minimal module using one SIMD instruction: (func (result v128) (v128.const i32x4 0 0 0 0)).
const simdProbe = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11,
]);

/** The problems that stop the page, as sentences (empty when all is well). */
export function missingCapabilities() {
  const problems = [];
  if (typeof WebAssembly !== 'object') {
    problems.push('This browser cannot run WebAssembly.');
  } else if (!WebAssembly.validate(simdProbe)) {
    problems.push('This browser runs WebAssembly without SIMD; please update it.');
  }
  if (!document.createElement('canvas').getContext('webgl2')) {
    problems.push('This browser offers no WebGL2 (or it is turned off), which the page needs to draw.');
  }
  if (typeof Worker !== 'function') problems.push('This browser cannot run web workers.');
  return problems;
}
