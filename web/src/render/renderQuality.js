// How finely the page draws, chosen once from the browser's WebGL renderer. A browser without
// a graphics card (Chromium's SwiftShader, Mesa's llvmpipe, Windows' Basic Render Driver) draws
// on the processor cores the solver steps on: at full quality (multisampling, soft shadows from
// a 2048² map, the device's pixels) headless Chromium's SwiftShader took both cores of a 2-core
// machine, and the crab's first 0.3 s took 5.4 s (docs/page.md). There the view is drawn light:
// at three quarters of the canvas's resolution (at a half, the labels drawn on the canvas could
// not be read), without multisampling or shadows.
const softwareRenderers = /SwiftShader|llvmpipe|softpipe|Basic Render Driver|Software Rasterizer/i;

/** The browser's WebGL renderer, as it names it (null without WebGL2). */
export function rendererName() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return null;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return String(name);
}

/**
 * kind: 'light' for a software renderer, else 'full'; antialias and shadows: whether the view
 * multisamples and casts shadows; pixelRatio: drawing-buffer pixels per CSS pixel.
 */
export function renderQuality(name, devicePixelRatio) {
  return softwareRenderers.test(name ?? '')
    ? { kind: 'light', antialias: false, shadows: false, pixelRatio: 0.75 }
    : { kind: 'full', antialias: true, shadows: true, pixelRatio: Math.min(devicePixelRatio, 2) };
}
