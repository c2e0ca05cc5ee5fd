// Files and folders a command writes beside its output before renaming them over it: removed
// whatever ends the run. An error is the caller's to clean up (its finally); Ctrl-C or a kill
// runs the handler here, which Node calls between steps (they await their writes), so one
// handler removes every pending one before the process exits.
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const pending = new Set();

function interrupted(signal) {
  for (const path of pending) rmSync(path, { recursive: true, force: true });
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/** Removes `path` (a file or a folder) if the process is interrupted; returns the release. */
export function removeOnInterrupt(path) {
  if (pending.size === 0) process.on('SIGINT', interrupted).on('SIGTERM', interrupted);
  pending.add(path);
  return () => {
    if (!pending.delete(path) || pending.size > 0) return;
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
  };
}

/** Where a command writes `path`'s work (`kind`: tmp, frames) before renaming it over it: beside it, hidden. */
export function besideOutput(path, kind) {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${kind}`);
}

/** The error for an output that could not be written, naming it and why. */
export function cannotWrite(path, error) {
  return new Error(`${path}: cannot be written (${error.code ?? error.message})`);
}
