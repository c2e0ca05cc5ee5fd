// A drag spring that moves a whole body of this mass at a few hertz: k = mass (2 pi 2 Hz)^2.
export const dragStiffness = (mass) => mass * (4 * Math.PI) ** 2;

/**
 * DragController's actions for simulators of one body side by side (stage.bodies[i].offset: where
 * copy i is drawn): every simulator gets the same spring, of dragStiffness(mass), at the same
 * place relative to its copy (same inputs).
 */
export function sideBySideDragActions(client, stage, mass) {
  const stiffness = dragStiffness(mass);
  let held = 0;
  const targets = (point) => {
    const local = point.clone().sub(stage.bodies[held].offset).toArray();
    return stage.bodies.map(() => local);
  };
  return {
    grab: (body, vertex, point) => {
      held = body;
      return client.dragStart(0, vertex, targets(point), stiffness);
    },
    pull: (point) => client.dragMove(targets(point)),
    release: () => client.dragEnd(),
  };
}
