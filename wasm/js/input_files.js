// Reading a file the user named: a failure names the path and the problem in words (Node's own
// message for a folder, "EISDIR: illegal operation on a directory, read", names no path, and a
// raw "ENOENT: ..." is no sentence).
import { readFile } from 'node:fs/promises';

const inputProblems = {
  ENOENT: 'no such file',
  EISDIR: 'a folder, not a file',
  EACCES: 'not readable (permission denied)',
};

/** A file the command reads (readFile's arguments). */
export async function readInput(path, encoding) {
  try {
    return await readFile(path, encoding);
  } catch (error) {
    throw new Error(`${path}: ${inputProblems[error.code] ?? error.message}`);
  }
}
