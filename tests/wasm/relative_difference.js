// The largest entry-wise difference of two trajectories' coordinates, relative to b's largest
// entry: how the wasm tests compare a build's run with the native one.
export function relativeDifference(a, b) {
  let difference = 0,
    norm = 0;
  for (let i = 0; i < a.length; ++i) {
    difference = Math.max(difference, Math.abs(a[i] - b[i]));
    norm = Math.max(norm, Math.abs(b[i]));
  }
  return difference / norm;
}
