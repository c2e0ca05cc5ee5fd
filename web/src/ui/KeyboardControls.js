// The view by keyboard: the canvas takes the focus (Tab); the arrow keys orbit the camera about
// the point it looks at, + and - zoom; G or Enter grabs the body (or obstacle) at that point, the
// centre of the picture (or the body vertex drawn nearest it, a rope's or a coil's), and the
// arrows then pull it across the screen until G, Enter or Escape lets go. Shift makes each step
// larger.
import * as THREE from 'three';

const turn = THREE.MathUtils.degToRad(5); // radians an arrow orbits
const pull = 0.04; // of the camera's distance to the point it looks at, per arrow

const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

const keyboardHelp =
  'The view: arrow keys orbit, + and - zoom, G grabs what is at the centre and the arrows pull it, G or Escape lets go.';

/** view: the View; drag: the DragController. */
export function keyboardControls(view, drag) {
  const canvas = view.renderer.domElement;
  canvas.tabIndex = 0;
  canvas.setAttribute('aria-label', keyboardHelp);
  canvas.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const scale = event.shiftKey ? 3 : 1;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const arrow = arrows[key];
    if (arrow && drag.holding) {
      const { camera, controls } = view;
      const step = pull * scale * camera.position.distanceTo(controls.target);
      const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      const up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
      drag.pullBy(right.multiplyScalar(arrow[0] * step).addScaledVector(up, arrow[1] * step));
    } else if (arrow) {
      view.orbit(-arrow[0] * turn * scale, arrow[1] * turn * scale);
    } else if (key === '+' || key === '=') {
      view.dolly(0.9 ** scale);
    } else if (key === '-' || key === '_') {
      view.dolly(1 / 0.9 ** scale);
    } else if (key === 'g' || key === 'Enter') {
      if (drag.holding) drag.letGo();
      else drag.grabAtFocus();
    } else if (key === 'Escape' && drag.holding) {
      drag.letGo();
    } else {
      return;
    }
    event.preventDefault();
  });
}
