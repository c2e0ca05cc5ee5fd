// The brush of "Your model": where the user clicks the model (or from script, paintRegion and
// pinRegion), a sphere of the brush's radius either paints a material of its own, of the
// brush's Young's modulus, or pins the vertices within it, at the next "Bake again"
// (smfem-bake --paint X,Y,Z,R,E and --pin X,Y,Z,R). Spheres are in the model's own coordinates
// (those of its file): a click takes the rest position of the surface vertex under it.

// The brush's radius for a model just opened: this fraction of its largest extent.
const kRadiusOfSize = 0.15;

const finite = (values) => values.every(Number.isFinite);
const round = (value) => Number(value.toPrecision(2));

/**
 * elements: { brush (a select: drag, paint, pin), radius, youngs, clear };
 * onChange(painted, pinned): the regions changed; onTool(tool): the brush changed ('drag',
 * 'paint' or 'pin').
 */
export function modelBrush({ brush, radius, youngs, clear }, { onChange, onTool }) {
  const painted = []; // { center, radius, youngs }, in order: a later one paints over
  const pinned = []; // { center, radius }
  const changed = () => onChange(painted, pinned);

  function paint(center, r, E) {
    if (center.length !== 3 || !finite([...center, r, E]) || r <= 0 || E <= 0) {
      throw new Error("paintRegion: expected a centre [x, y, z], a radius > 0 and a Young's modulus > 0");
    }
    painted.push({ center: [...center], radius: r, youngs: E });
    changed();
    return painted.length;
  }

  function pin(center, r) {
    if (center.length !== 3 || !finite([...center, r]) || r <= 0) {
      throw new Error('pinRegion: expected a centre [x, y, z] and a radius > 0');
    }
    pinned.push({ center: [...center], radius: r });
    changed();
    return pinned.length;
  }

  brush.addEventListener('change', () => onTool(brush.value));
  clear.addEventListener('click', () => {
    painted.length = 0;
    pinned.length = 0;
    changed();
  });

  return {
    paint,
    pin,
    /** A click on the model at `center` (rest position): paints or pins there, as the brush says. */
    at(center) {
      // Said in the panel's words (the script functions' messages name their arguments).
      const r = Number(radius.value);
      if (radius.value === '' || !(r > 0)) throw new Error('The brush needs a Radius (m) above 0.');
      if (brush.value === 'paint') {
        const E = Number(youngs.value);
        if (youngs.value === '' || !(E > 0)) throw new Error('The brush needs an E (Pa) above 0.');
        paint(center, r, E);
      } else if (brush.value === 'pin') {
        pin(center, r);
      }
    },
    /** A new model: no regions, the brush back to dragging, its radius to be sized again. */
    forget() {
      painted.length = 0;
      pinned.length = 0;
      radius.value = '';
      this.drag();
      changed();
    },
    /** The brush back to dragging (the regions stay). */
    drag() {
      brush.value = 'drag';
      onTool('drag');
    },
    /** The model opened is `size` across (m): the radius follows unless one was chosen. */
    sized(size) {
      if (radius.value === '') radius.value = String(round(kRadiusOfSize * size));
    },
    /** smfem-bake's options for the regions, on the model scaled by `factor` (its Units changed). */
    options(factor = 1) {
      const at = (center, r) => [...center.map((x) => x * factor), r * factor];
      return [
        ...painted.flatMap(({ center, radius: r, youngs: E }) => [
          '--paint',
          [...at(center, r), E].join(','),
        ]),
        ...pinned.flatMap(({ center, radius: r }) => ['--pin', at(center, r).join(',')]),
      ];
    },
    /** The model baked again `factor` times as large: the regions and the radius go with it. */
    scaled(factor) {
      if (factor === 1) return;
      for (const region of [...painted, ...pinned]) {
        region.center = region.center.map((x) => x * factor);
        region.radius *= factor;
      }
      if (radius.value !== '') radius.value = String(round(Number(radius.value) * factor));
      changed();
    },
    /** "2 painted regions and 1 pinned region", or '' when there are none. */
    summary() {
      const count = (n, what) => (n ? `${n} ${what}${n > 1 ? 's' : ''}` : '');
      return [count(painted.length, 'painted region'), count(pinned.length, 'pinned region')]
        .filter(Boolean)
        .join(' and ');
    },
  };
}
