// Public API of wasm/js/loader.js.

export type SmfemBuild = 'threads' | 'single';

export interface AssetContents {
  /** The asset's metadata (its `meta` section), parsed. */
  meta: Record<string, unknown>;
  sections: Array<{ name: string; dtype: string; shape: number[]; offset: number; length: number }>;
}

export interface Smfem {
  /** Which flavour was loaded. */
  readonly build: SmfemBuild;
  /** The module's version (the CMake project version). */
  readonly version: string;
  /** Validates asset bytes with the C++ reader; throws an Error naming file, section and problem. */
  inspectAsset(bytes: Uint8Array | ArrayBuffer, sourceName?: string): AssetContents;
  /** Runs `count` tasks on threads; returns how many distinct threads ran them (1 in 'single'). */
  distinctWorkerThreads(count: number): number;
  /** Ends the worker threads. The object must not be used afterwards. */
  dispose(): void;
}

export interface LoadOptions {
  /** 'auto' (default): 'threads' under Node or on cross-origin isolated pages, else 'single'. */
  build?: 'auto' | SmfemBuild;
  /** Download progress of the .wasm binary in the browser (bytes; total 0 if unknown). */
  onProgress?: (loaded: number, total: number) => void;
}

/** The flavour this environment can run. */
export function chooseBuild(): SmfemBuild;

/** Loads and instantiates the module (Node or browser). */
export function loadSmfem(options?: LoadOptions): Promise<Smfem>;
