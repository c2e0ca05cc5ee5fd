// Local deformations (paper 001) on and off side by side, in a scene with contact or a body on
// its own: what each copy is labelled with on the canvas, and named in the plots, CSV and status.
export const localComparisonLabels = ['Local deformations', 'Global modes alone'];

/** The two copies' names for a solver's name. */
export const localComparisonNames = (name) => [name, `${name}-global-only`];
