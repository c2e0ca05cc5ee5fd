// What the command line writes (simulate --trajectory and --render, figures --out) never replaces
// a file of the user's or mixes into a folder that holds some: an existing file, or a folder
// that is not empty, is refused before anything runs, unless the user says --force.
import { access, constants, readdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Throws unless nothing is at `path`, or `force`. `option`: the flag that named it. */
export async function refuseExistingFile(path, option, force) {
  const existing = await stat(path).catch(() => null);
  if (!existing) return;
  if (existing.isDirectory()) throw new Error(`${option} ${path}: a folder is there, not a file`);
  if (!force) throw new Error(`${option} ${path}: the file exists (pass --force to replace it)`);
}

/** Throws unless the folder `path` goes into exists and may be written (checked before a run). */
export async function requireWritableFolder(path, option) {
  const folder = dirname(path);
  const existing = await stat(folder).catch(() => null);
  if (!existing?.isDirectory()) throw new Error(`${option} ${path}: there is no folder ${folder}`);
  await access(folder, constants.W_OK).catch(() => {
    throw new Error(`${option} ${path}: the folder ${folder} cannot be written`);
  });
}

/** Throws unless the folder is new or empty, or `force`; a file at `folder` is refused always. */
export async function refuseFilledFolder(folder, option, force) {
  const existing = await stat(folder).catch(() => null);
  if (!existing) return;
  if (!existing.isDirectory()) throw new Error(`${option} ${folder}: not a folder`);
  if (!force && (await readdir(folder)).length > 0)
    throw new Error(
      `${option} ${folder}: the folder is not empty (give a new or an empty one, or pass --force)`,
    );
}
