// The status line's words for the steps the energy check solved again: at the iterations the
// slider sets, a step that gained energy beyond the loads' work (or failed) is taken again
// with more. Said for a student, at the current setting.
import { solvers } from '../state/urlState.js';

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * names: the simulators' series names (a solver's, or a lineup's body); counts: steps solved
 * again per simulator since the scene, the reset or the last change of iterations; iterations:
 * the current setting. '' when none was.
 */
export function solvedAgainSentence(names, counts, iterations) {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return '';
  const why = (they, were) =>
    `at ${plural(iterations, 'iteration')} ${they} gained energy, so ${they} ${were} solved again with more`;
  if (names.length === 1) {
    return `${plural(total, 'step')} so far: ${total === 1 ? why('it', 'was') : why('they', 'were')}.`;
  }
  const each = names.map((name, i) => `${solvers[name]?.label ?? name} ${counts[i]}`).join(', ');
  return `Steps so far (${each}): ${why('they', 'were')}.`;
}
