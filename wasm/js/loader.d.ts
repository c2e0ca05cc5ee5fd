// Public API of wasm/js/loader.js.

export type SmfemBuild = 'threads' | 'single';

export interface AssetContents {
  /** The asset's metadata (its `meta` section), parsed. */
  meta: Record<string, unknown>;
  sections: Array<{ name: string; dtype: string; shape: number[]; offset: number; length: number }>;
}

export type Vec3 = [number, number, number];

/** Run-time parameters; every key optional. Out-of-range values are clamped with a warning. */
export interface SimulatorParameters {
  /** 'mfem' (subspace mixed FEM, default) or 'fem' (the subspace FEM baseline). */
  solver?: 'mfem' | 'fem';
  /**
   * How MFEM models the constraint's curvature in its stiffness: 'curvature' (exact where that
   * gives Newton a descent direction, else dropped: the default), 'paper' (dropped, as in
   * Trusty et al. 2023) or 'projected' (its positive semi-definite part).
   */
  mixedVariant?: 'paper' | 'projected' | 'curvature';
  /**
   * Check each step's energy balance and retry a step that gains energy beyond the loads' work
   * (or fails) with more iterations, then to convergence (default true).
   */
  energyCheck?: boolean;
  /**
   * Apply the asset's EigenFit correction (its leading vibration modes rescaled to a finer
   * mesh's eigenvalues, smfem-bake --eigenfit; SimulatorInfo.eigenFit) when it carries one:
   * default true. No effect on an asset without one.
   */
  eigenFit?: boolean;
  /**
   * Re-fit the EigenFit modes at the start of every step (EigenFit, Chen et al. 2019, §3.3: for
   * large deformation), where they still match the rest modes; else the rest fit (default false).
   */
  eigenFitRelinearized?: boolean;
  materialModel?: 'arap' | 'fixed_corotational' | 'stable_neo_hookean';
  /**
   * Solver iterations per step, 1..200: at most this many. A step stops early once it has
   * converged: its Newton decrement is 0, or the energy decrease it predicts (decrement^2 / 2) is
   * below 1e-12 of the magnitude of the step's energies (lost in rounding), or, with
   * untilConverged, it meets the tolerances below (StepReport.converged). A line search that
   * accepts nothing ends the step too. A step that starts with an impact (contact) gets 4 times
   * as many, and the energy check solves a step that gained energy again with 4 times as many,
   * then to convergence (StepReport.retries).
   */
  iterations?: number;
  /** Seconds, 1e-5..0.1. */
  timestep?: number;
  /** m/s^2; a vector longer than 1000 is shortened to 1000 with a warning. */
  gravity?: Vec3;
  /** Iterate until the Newton decrement meets the tolerances (offline use). */
  untilConverged?: boolean;
  relativeTolerance?: number;
  /** Joules. */
  absoluteTolerance?: number;
  /** Assemble the stiffness in single precision (it only steers the search direction). */
  floatStiffness?: boolean;
  maxBacktracks?: number;
  /** Per material region: Young's modulus (Pa, 1e2..1e13) and Poisson's ratio (0..0.49). */
  materials?: Array<{ region: number; youngs?: number; poisson?: number }>;
}

export interface SimulatorOptions {
  /** Names the asset in error messages. */
  sourceName?: string;
  /**
   * Threads in all, a whole number in [1, 1024] (default 2 in 'threads', 1 in 'single'); limited
   * by the free pthreads (with a warning).
   */
  threads?: number;
  /** Overrides of the asset's solver defaults. */
  parameters?: SimulatorParameters;
  /**
   * createSimulator only: the drag dents the body where it grabs (local deformations, issue 26;
   * docs/local.md). Needs an asset baked with its tet mesh (smfem-bake --full-mesh).
   */
  localDeformations?: boolean;
}

/** An attached local patch: rest centre (m), turned frame (column-major 3 x 3), coefficients (m). */
export interface LocalPatch {
  centre: Vec3;
  frame: number[];
  coefficients: Vec3;
}

export interface ThinSimulatorOptions extends SimulatorOptions {
  /** The mesh files the recipe names (thinRecipeFiles), by the names it gives them. */
  files?: { name: string; bytes: Uint8Array | ArrayBuffer }[];
}

export interface ContactSceneOptions extends SimulatorOptions {
  /**
   * Whether quiet islands fall asleep (default true: they then cost nothing until touched,
   * dragged or changed). false steps every body every step, as benchmarks of contact's cost
   * per iteration need.
   */
  sleeping?: boolean;
}

export interface Diagnostics {
  /**
   * Joules: kinetic, elastic (cubature, at s(F(u))), stretch (at the stretch DOFs), gravity
   * potential, drag spring, contact (the barrier's, in a contact scene and for a thin body with
   * obstacles; else 0), total (kinetic + elastic + gravity + spring + contact).
   */
  energy: {
    kinetic: number;
    elastic: number;
    stretch: number;
    gravity: number;
    spring: number;
    contact: number;
    total: number;
  };
  /** kg m/s. */
  linearMomentum: Vec3;
  /** kg m^2/s, about the origin. */
  angularMomentum: Vec3;
  centroid: Vec3;
  maxConstraintViolation: number;
}

export interface StepReport extends Diagnostics {
  /** False if the step met a non-finite value: the state was rolled back (see warnings()). */
  ok: boolean;
  /** Attempts after the first: the step gained energy or failed and was solved again. */
  retries: number;
  /** J: the step's energy change beyond the loads' work (kinetic + elastic + springs). */
  energyGain: number;
  /**
   * Every retry of the energy check gained energy and none converged: the step kept is the last
   * attempt, not implicit Euler's (warnings() says so); the motion is not to be trusted at these
   * settings. Always false for shells, rods and displacement bases.
   */
  energyUnbalanced: boolean;
  /** Simulated time after the step, s. */
  time: number;
  /** A Simulator's with localDeformations: the patches attached after the step. */
  localPatches?: number;
  iterations: number;
  converged: boolean;
  firstDecrement: number;
  /** Newton decrement of the last iteration (sqrt of J). */
  decrement: number;
  /** Step-size halvings in all line searches of the step. */
  lineSearchSteps: number;
  lineSearchFailures: number;
  choleskyShifts: number;
  /** MFEM, curvature variant: iterations that took the paper's direction instead of Newton's. */
  curvatureFallbacks: number;
  /** Wall clock of the step and per phase (summed over iterations), ms. */
  stepMs: number;
  phasesMs: {
    prediction: number;
    linearization: number;
    assembly: number;
    solve: number;
    localUpdate: number;
    lineSearch: number;
  };
}

export interface SimulatorInfo {
  modes: number;
  cubature: number;
  threads: number;
  renderVertices: number;
  /** The body's mass, kg. */
  totalMass: number;
  /** The material regions some cubature tet samples (only their materials reach the solver). */
  cubatureRegions: number[];
  /**
   * The asset's EigenFit, or null: the fitted modes' frequencies before (coarseHz) and after
   * (fineHz, the fine mesh's) and their ratios of eigenvalues (fine / coarse; 1 unmatched).
   */
  eigenFit: { modes: number; ratios: number[]; coarseHz: number[]; fineHz: number[] } | null;
  /** Whether it runs local deformations (createSimulator's localDeformations). */
  localDeformations: boolean;
  source: string;
  parameters: Required<Omit<SimulatorParameters, 'materials'>>;
}

export interface Simulator {
  readonly info: SimulatorInfo;
  setParameters(parameters: SimulatorParameters): void;
  /** Runs `count` steps (default 1); one report per step run, stopping after a failed one. */
  step(count?: number): StepReport[];
  /**
   * u, 12m floats, a copy: u[4m d + 4i + k] = (A_i)[d][k] for mode i's 3x4 affine matrix A_i,
   * so a vertex moves to x = X + sum_i w_i(X) A_i [X; 1].
   */
  coordinates(): Float32Array;
  /** u in double precision, a copy. */
  coordinatesF64(): Float64Array;
  diagnostics(): Diagnostics & { time: number; stepCount: number };
  /** A spring (N/m) from render vertex `renderVertex` to `target`. */
  dragStart(renderVertex: number, target: Vec3, stiffness: number): void;
  dragMove(target: Vec3): void;
  dragEnd(): void;
  /** The attached local patches (none without localDeformations). */
  localPatches(): LocalPatch[];
  /**
   * How far the patches move each render vertex now and that displacement's gradient (12 floats
   * a vertex, as ContactScene.bodyDent), or null without patches.
   */
  dent(): Float32Array | null;
  /** Back to rest at time 0; parameters, materials and the drag spring are kept. */
  reset(): void;
  /** The dynamic state as bytes; restore() then step() reproduces the run bit for bit. */
  snapshot(): Uint8Array;
  restore(bytes: Uint8Array | ArrayBuffer): void;
  /** Warnings since the last call, oldest first. */
  warnings(): string[];
  /** Frees the simulator and its worker threads. */
  dispose(): void;
}

export interface ClaimsRun {
  label: string;
  solver: 'mfem' | 'fem';
  variant: 'paper' | 'projected' | 'curvature' | null;
  /** Per step; 0 = to convergence. */
  iterations: number;
  timestep: number;
  steps: number;
  failedSteps: number;
  retriedSteps: number;
  iterationsPerStep: number;
  backtracksPerStep: number;
  energyExcess: number;
  wallMs: number;
  /** Against the converged MFEM run (truncated runs only). */
  angularMomentumError?: number;
  peakKineticRatio?: number;
  /** null where the converged run is still late. */
  lateKineticRatio?: number | null;
}

export interface ClaimsScene {
  scene: string;
  modes: number;
  cubature: number;
  material: string;
  runs: ClaimsRun[];
  /** Converged FEM against converged MFEM: max |u - u_ref| / max |u_ref|. */
  agreement: number;
  verdicts: Record<string, boolean>;
  stability?: ClaimsRun[];
}

export interface ConvergenceStudy {
  stiffRegion: number;
  softYoungs: number;
  /** Iterations asked for; a shorter list ended converged. */
  iterations: number;
  ratios: Array<{
    ratio: number;
    fem: number[];
    'mfem-paper': number[];
    'mfem-curvature': number[];
    /** Solvers whose step failed (their list ends there). */
    failed?: string[];
  }>;
}

export interface PageAsset {
  /** The asset's metadata (meta). */
  meta: Record<string, unknown>;
  /** The render surface, row-major (render.*); weights nv x m, empty for m = 0. */
  surface: {
    vertexCount: number;
    triangleCount: number;
    modeCount: number;
    positions: Float32Array;
    triangles: Uint32Array;
    weights: Float32Array;
    normals?: Float32Array;
    clusters?: Uint32Array;
    /** The material region of each vertex (meta.materials[i].region), for display. */
    regions?: Uint32Array;
  };
  /** The representative tets' rest centroids (C x 3) and skinning weights (C x m), or null. */
  markers: { count: number; modeCount: number; centroids: Float32Array; weights: Float32Array } | null;
}

export interface Smfem {
  /** Which flavour was loaded. */
  readonly build: SmfemBuild;
  /**
   * Why the threaded flavour, chosen by 'auto' in a browser, did not start (the single one was
   * loaded instead), or null.
   */
  readonly threadsFailed: string | null;
  /** The module's version (the CMake project version). */
  readonly version: string;
  /** Validates asset bytes with the C++ reader; throws an Error naming file, section and problem. */
  inspectAsset(bytes: Uint8Array | ArrayBuffer, sourceName?: string): AssetContents;
  /**
   * What the page draws of an asset, read by the C++ reader the stepper uses (render.* and the
   * cubature markers, assets/FORMAT.md); throws an Error naming file, section and problem.
   */
  pageAsset(bytes: Uint8Array | ArrayBuffer, sourceName?: string): PageAsset;
  /**
   * Runs `count` tasks on threads; returns how many distinct threads ran them (1 in 'single').
   * Throws an Error for a count that is not a whole number from 1 to the thread pool's size.
   */
  distinctWorkerThreads(count: number): number;
  /**
   * The claims suite's measurements of one scene (`npx smfem claims`): converged, truncated and
   * (unless quick) stability runs, their comparisons and verdicts. The JSON is documented in
   * wasm/src/smfem/claims/scene_claims.hpp.
   */
  evaluateClaims(bytes: Uint8Array | ArrayBuffer, options?: { name?: string; quick?: boolean }): ClaimsScene;
  /**
   * Trusty et al. 2023, Fig. 9: the Newton decrement of each iteration of one step from a deformed
   * start, for FEM and both MFEM variants, with the material `region` at each ratio times the
   * softest one. Defaults (claims::ConvergenceOptions): ratios 1e2, 1e4, 1e6; loadTime 0.3 s; 30
   * iterations.
   */
  convergenceStudy(
    bytes: Uint8Array | ArrayBuffer,
    options: { name?: string; region: string; ratios?: number[]; loadTime?: number; iterations?: number },
  ): ConvergenceStudy;
  /** A simulator of an asset; throws an Error naming the problem for a bad asset or option. */
  createSimulator(bytes: Uint8Array | ArrayBuffer, options?: SimulatorOptions): Simulator;
  /**
   * The displacement basis an asset carries (smfem-bake --comparison-basis: linear modes or
   * modal derivatives, stepped with the asset's own cubature); the parameters and the step
   * reports are createSimulator's, but eigenFit, eigenFitRelinearized, floatStiffness and
   * energyCheck do not apply (a warning says so) and "materials" is refused. Throws an Error
   * naming the problem (an asset without a basis names the bake option).
   */
  createDisplacementSimulator(
    bytes: Uint8Array | ArrayBuffer,
    options?: SimulatorOptions,
  ): DisplacementSimulator;
  /**
   * A shell or a rod from its recipe's JSON text (wasm/src/smfem/thin/thin_recipe.hpp), stepped
   * by the full-space mixed or FEM step; the parameters and the step reports are
   * createSimulator's (plus maxStrain; with obstacles minDistance, activeContacts and dHat), but
   * eigenFit, eigenFitRelinearized and floatStiffness do not apply (a warning says so), and
   * "materials" sets its parts' materials (ThinSimulator.setParameters). Throws an Error
   * naming the recipe's key at fault. A recipe whose shell or rod is a "mesh" needs that file in
   * `files`.
   */
  createThinSimulator(recipeText: string, options?: ThinSimulatorOptions): ThinSimulator;
  /** The file names a thin recipe's "mesh" keys give, to read and pass as createThinSimulator's `files`. */
  thinRecipeFiles(recipeText: string, options?: { sourceName?: string }): string[];
  /**
   * A scene of several bodies coupled through contact, among obstacles: the scene file's text
   * (assets/scenes/README.md, "Scenes with contact") and one baked asset per body, in its order.
   * Throws an Error naming the problem (bad file, a body without contact samples, an
   * intersecting start).
   */
  createContactScene(
    sceneText: string,
    assets: Array<{ bytes: Uint8Array | ArrayBuffer; name: string }>,
    options?: ContactSceneOptions,
  ): ContactScene;
  /** Disposes the simulators and ends the worker threads. The object must not be used afterwards. */
  dispose(): void;
}

export interface DisplacementSimulatorInfo {
  /** "linear" or "modal_derivatives". */
  basis: string;
  /** k, the basis's columns. */
  coordinates: number;
  /** The quadrature's tets (the bake's cubature). */
  cubature: number;
  tets: number;
  vertices: number;
  threads: number;
  source: string;
  /** Those that apply: not eigenFit, eigenFitRelinearized, floatStiffness nor energyCheck. */
  parameters: Required<
    Omit<
      SimulatorParameters,
      'materials' | 'eigenFit' | 'eigenFitRelinearized' | 'floatStiffness' | 'energyCheck'
    >
  >;
}

export interface DisplacementSimulator {
  readonly info: DisplacementSimulatorInfo;
  setParameters(parameters: Omit<SimulatorParameters, 'materials'>): void;
  step(count?: number): StepReport[];
  /** q, k doubles: the vertices move by Phi q. */
  coordinatesF64(): Float64Array;
  diagnostics(): Diagnostics & { time: number };
  reset(): void;
  warnings(): string[];
  dispose(): void;
}

export interface ThinSimulatorInfo {
  /** A lone shell or rod, or a recipe's "parts" (shells, rods and tet volumes in one solver). */
  kind: 'shell' | 'rod' | 'parts';
  /** The recipe's bodies in order (one for a lone shell or rod): their elements and vertices. */
  parts: Array<{ kind: 'shell' | 'rod' | 'volume'; elements: number; vertices: number }>;
  /** The recipe's "name", or the source name. */
  name: string;
  vertices: number;
  /** Triangles or segments. */
  elements: number;
  /** Vertices and directors (one per triangle, two per segment). */
  nodes: number;
  /** The unknowns of the global system (3 per free node). */
  unknowns: number;
  totalMass: number;
  threads: number;
  source: string;
  /** The recipe's obstacles, in its terms (as ContactScene.info's). */
  obstacles: object[];
  /** The recipe's description and camera (null without one). */
  description: string;
  camera: { position: Vec3; target: Vec3 } | null;
  /** One material per part (region i: part i): the recipe's, or as setParameters set it since. */
  materials: Array<{ region: number; name: string; youngs: number; poisson: number }>;
  /** Those that apply: not eigenFit, eigenFitRelinearized nor floatStiffness. */
  parameters: Required<
    Omit<SimulatorParameters, 'materials' | 'eigenFit' | 'eigenFitRelinearized' | 'floatStiffness'>
  >;
}

export interface ThinStepReport extends StepReport {
  /** The largest |l / L - 1| over the mesh's edges after the step. */
  maxStrain: number;
  /** With obstacles, as a contact scene's: the smallest vertex-obstacle distance, m, the pairs
   * within dHat, dHat, and each obstacle's translation from where the recipe puts it. */
  minDistance?: number;
  activeContacts?: number;
  dHat?: number;
  obstacleOffsets?: Vec3[];
  /** The vertices a moving obstacle pushed ahead of it before the step. */
  pushedVertices?: number;
}

export interface ThinSimulator {
  readonly info: ThinSimulatorInfo;
  /**
   * Changes parameters from the current state on (the displacements and velocities are kept).
   * materials: [{ region, youngs?, poisson? }] makes the body again from its recipe with that
   * material for part `region` (bending included); values the recipe would refuse are refused
   * alike. A refused parameter leaves every setting and material as it was.
   */
  setParameters(parameters: SimulatorParameters): void;
  step(count?: number): ThinStepReport[];
  /** The vertices' displacements, 3 n doubles: all x, then all y, then all z. */
  coordinatesF64(): Float64Array;
  /** Rest positions (x y z per vertex), the surfaces' triangles (3 ids each: shells', volumes'
   * boundaries), the rods' segments (2) and each segment's radius, m. */
  restShape(): {
    positions: Float32Array;
    triangles: Uint32Array;
    edges: Uint32Array;
    edgeRadii: Float32Array;
  };
  /** A spring (N/m) from vertex `vertex` to `target`, until dragEnd. */
  dragStart(vertex: number, target: Vec3, stiffness: number): void;
  dragMove(target: Vec3): void;
  dragEnd(): void;
  /** Holds obstacle `index` (not a plane) at `offset` from where the recipe puts it; each step
   * moves it there as far as the vertices let it. */
  moveObstacle(index: number, offset: Vec3): void;
  /**
   * The force the body presses on each obstacle now, N: the barrier's, and an obstacle's push of
   * the last step (the momentum it gave the vertices it swept, over the step); friction's is not
   * in it.
   */
  obstacleForces(): Vec3[];
  diagnostics(): Diagnostics & { time: number; maxStrain: number };
  /** Rest at time 0, the obstacles where the recipe puts them. */
  reset(): void;
  warnings(): string[];
  dispose(): void;
}

export interface ContactStepReport extends StepReport {
  /**
   * After the step: the smallest distance between a contact sample and an obstacle or another
   * body of its island, m; null where no island has an obstacle or two bodies to measure (bodies
   * of different islands are farther apart than dHat, and their distance is not measured).
   */
  minDistance: number | null;
  /** The activation distance d̂ of the barrier, m. */
  dHat: number;
  /** Islands stepped this step, and bodies asleep after it (contact_scene.hpp). */
  islands: number;
  asleep: number;
  /** Sample pairs closer than the activation distance. */
  activeContacts: number;
  /** Obstacles whose scripted or dragged motion a body held back this step. */
  obstaclesHeld: number;
  /** The barrier stiffness kappa now (adaptive unless the scene sets it), Pa. */
  contactStiffness: number;
  /**
   * clearance: the body's closest distance to anything, exact below dHat (null: nothing near);
   * iterations: its island's solver iterations this step, retries included (0 asleep);
   * localPatches: the patches its local deformations have attached (0 without them, and while
   * it shares an island with another body: contact_scene.hpp); patchSets: how many patch sets
   * its local deformations have made so far, the empty one they start with included (each
   * change of patches, or one undone, costs about a step).
   */
  bodies: Array<{
    centroid: Vec3;
    linearMomentum: Vec3;
    kinetic: number;
    clearance: number | null;
    iterations: number;
    asleep: boolean;
    localPatches: number;
    patchSets: number;
  }>;
  obstacleOffsets: Vec3[];
}

export type ObstacleShape =
  | { type: 'plane'; point: Vec3; normal: Vec3 }
  | { type: 'sphere'; center: Vec3; radius: number }
  | { type: 'box'; center: Vec3; halfExtents: Vec3 }
  | { type: 'capsule'; from: Vec3; to: Vec3; radius: number };

export interface ContactScene {
  readonly info: {
    /**
     * Each body's modes in U, mass (kg) and placement; localDeformations: the scene file asks them
     * of the body (bodyDent draws them); cubatureRegions: the material regions its cubature samples.
     */
    bodies: Array<{
      firstMode: number;
      modes: number;
      mass: number;
      offset: Vec3;
      localDeformations: boolean;
      cubatureRegions: number[];
    }>;
    modes: number;
    cubature: number;
    contactSamples: number;
    threads: number;
    activationDistance: number;
    /** Where each obstacle starts (reports give its offset since), in the scene file's terms. */
    obstacles: ObstacleShape[];
    timestep: number;
  };
  /** As Simulator's, except timestep and gravity (the scene file's). */
  setParameters(parameters: Omit<SimulatorParameters, 'timestep' | 'gravity'>): void;
  step(count?: number): ContactStepReport[];
  coordinatesF64(): Float64Array;
  /** After the last step: where the samples closer than the activation distance to something are, x y z each. */
  contactPoints(): Float32Array;
  moveObstacle(index: number, offset: Vec3): void;
  /** The force the bodies press on each obstacle now, N (the contact barrier's; friction's not in it). */
  obstacleForces(): Vec3[];
  /** How far body `body`'s patches move its render vertices now and its gradient (12 floats each), or null. */
  bodyDent(body: number): Float32Array | null;
  /** A drag spring (N/m) from a render vertex of one body to a point of the scene. */
  dragStart(body: number, renderVertex: number, target: Vec3, stiffness: number): void;
  dragMove(target: Vec3): void;
  dragEnd(): void;
  reset(): void;
  warnings(): string[];
  dispose(): void;
}

export interface LoadOptions {
  /**
   * 'auto' (default): 'threads' under Node or on cross-origin isolated pages, else 'single'; in a
   * browser, 'single' too where 'threads' fails to start (Smfem.threadsFailed says why).
   */
  build?: 'auto' | SmfemBuild;
  /**
   * Node only, threaded build only: load the tools module (smfem-tools), which adds
   * evaluateClaims, convergenceStudy and createDisplacementSimulator to the page's module;
   * without it those three throw.
   */
  tools?: boolean;
  /** Download progress of the .wasm binary in the browser (bytes; total 0 if unknown). */
  onProgress?: (loaded: number, total: number) => void;
}

/** The flavour this environment can run. */
export function chooseBuild(): SmfemBuild;

/** Loads and instantiates the module (Node or browser). */
export function loadSmfem(options?: LoadOptions): Promise<Smfem>;
