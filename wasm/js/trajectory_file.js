// The file `smfem simulate --trajectory` writes:
//
//   "SMFT", u32 format 1, u32 steps, u32 r, then steps x r f64, little-endian, step by step,
//   each the simulator's coordinatesF64() (loader.js): u as vec(U), r = 12 m, or a comparison
//   subspace's q, r = k
//
// written as the run goes into a temporary file beside it, renamed over it once every step is
// in: the output appears whole or not at all, and memory does not grow with the steps.
import { open, rename, rm } from 'node:fs/promises';
import { besideOutput, cannotWrite, removeOnInterrupt } from './work_files.js';

export class TrajectoryFile {
  /** Starts the file for `steps` records of `size` coordinates each. */
  static async create(path, steps, size) {
    const temporary = besideOutput(path, 'tmp');
    const release = removeOnInterrupt(temporary);
    const file = new TrajectoryFile(path, temporary, release, size);
    try {
      file.handle = await open(temporary, 'wx');
      const header = new DataView(new ArrayBuffer(16));
      [0x53, 0x4d, 0x46, 0x54].forEach((byte, i) => header.setUint8(i, byte));
      header.setUint32(4, 1, true);
      header.setUint32(8, steps, true);
      header.setUint32(12, size, true);
      await file.write(new Uint8Array(header.buffer));
    } catch (error) {
      await file.discard();
      throw error;
    }
    return file;
  }

  constructor(path, temporary, release, size) {
    this.path = path;
    this.temporary = temporary;
    this.release = release;
    this.handle = null;
    // A step's coordinates are copied here first: the module's may be a view of its memory.
    this.record = new Float64Array(size);
  }

  async write(bytes) {
    try {
      await this.handle.write(bytes);
    } catch (error) {
      throw cannotWrite(this.path, error);
    }
  }

  /** Adds one step's coordinates (size doubles). */
  async append(coordinates) {
    this.record.set(coordinates);
    await this.write(new Uint8Array(this.record.buffer));
  }

  /** Every step is in: the file takes the output's name. */
  async commit() {
    await this.handle.close();
    this.handle = null;
    try {
      await rename(this.temporary, this.path);
    } catch (error) {
      await this.discard();
      throw cannotWrite(this.path, error);
    }
    this.release();
  }

  /** The run ended short: nothing is left behind. */
  async discard() {
    await this.handle?.close().catch(() => {});
    this.handle = null;
    await rm(this.temporary, { force: true });
    this.release();
  }
}
