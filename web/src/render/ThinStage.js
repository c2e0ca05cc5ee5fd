import * as THREE from 'three';
import { ObstacleMeshes, floorOf, shapeBounds } from './ObstacleMeshes.js';
import { RodTubes } from './RodTubes.js';
import {
  edgeIndices,
  edgeLengths,
  edgeStrains,
  meshEdges,
  paintStrains,
  vertexStrains,
} from './edgeStrain.js';
import { CanvasLabels, bodyColours, sideBySideSpacing } from './SideBySideStage.js';

/**
 * What the page draws for a shell or a rod (wasm/src/smfem/thin/), or several with a volume (a
 * recipe's "parts"): per simulator its vertices where the solver has them (rest + displacement,
 * on the CPU: a cloth has no skinning), its triangles (a shell's, a volume's boundary) lit on both
 * sides, its rods' segments as tubes of their radius (RodTubes.js); with each copy its own
 * obstacles, drawn where the solver has moved them. Side by side, copies stand sideBySideSpacing
 * apart, each in its solver's colour and labelled. A drag pulls the vertex nearest the pointer, or
 * moves a sphere, box or capsule (in every copy alike). "Colour: edge strain" paints each vertex
 * and rod segment by its strain instead (edgeStrain.js).
 */
export class ThinStage {
  /** shape: { positions, triangles, edges, edgeRadii } (ThinSimulator.restShape); obstacles: info.obstacles. */
  constructor(shape, obstacles, count) {
    this.rest = shape.positions;
    this.vertexCount = shape.positions.length / 3;
    this.hasSurface = shape.triangles.length > 0;
    // The rods' vertices: picked as points.
    const rodVertices = new Uint32Array([...new Set(shape.edges)]);
    const restBounds = new THREE.Box3().setFromArray(this.rest);
    for (const obstacle of obstacles) restBounds.union(shapeBounds(obstacle));
    this.floor = floorOf(obstacles);
    if (this.floor !== null) restBounds.expandByPoint(restBounds.min.clone().setY(this.floor));
    // With nothing under it, a body held up hangs down by at most its own extent: the view frames
    // (and draws its reference floor under) that much.
    else restBounds.min.y -= restBounds.getSize(new THREE.Vector3()).length();
    this.restBounds = restBounds;
    // The strain view's edges (the triangles' and the rods'), and where the rods' segments (their
    // tubes) are among them.
    this.strainEdges = meshEdges(shape.triangles, shape.edges);
    this.strainRest = edgeLengths(this.strainEdges, this.rest);
    this.rodSegments = edgeIndices(this.strainEdges, shape.edges);
    this.strainView = false;
    // A rod is picked within this of its vertices, and drawn at least a tenth as thick.
    const pickSize = 0.02 * new THREE.Box3().setFromArray(this.rest).getSize(new THREE.Vector3()).length();
    const spacing = count > 1 ? sideBySideSpacing(restBounds) : 0;
    this.object = new THREE.Group();
    this.bounds = new THREE.Box3();
    this.copies = Array.from({ length: count }, (_, i) => {
      const offset = new THREE.Vector3((i - (count - 1) / 2) * spacing, 0, 0);
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(this.rest), 3));
      const color = count > 1 ? bodyColours[i] : 0xd98a5f;
      const drawn = new THREE.Group();
      // The surfaces' and the rods' geometries share the positions (one update moves both).
      const position = geometry.attributes.position;
      // Per-vertex colours (white: the material's own), painted in the strain view.
      geometry.setAttribute(
        'color',
        new THREE.BufferAttribute(new Float32Array(this.rest.length).fill(1), 3),
      );
      let surface = null;
      if (this.hasSurface) {
        geometry.setIndex(new THREE.BufferAttribute(shape.triangles, 1));
        geometry.computeVertexNormals();
        surface = new THREE.Mesh(
          geometry,
          new THREE.MeshStandardMaterial({
            color,
            side: THREE.DoubleSide,
            roughness: 0.8,
            vertexColors: true,
          }),
        );
        surface.castShadow = surface.receiveShadow = true;
        surface.frustumCulled = false;
        drawn.add(surface);
      }
      const tubes =
        shape.edges.length > 0
          ? new RodTubes(
              shape.edges,
              shape.edgeRadii,
              0.05 * pickSize,
              new THREE.MeshStandardMaterial({ color, roughness: 0.6 }),
            )
          : null;
      if (tubes) {
        tubes.update(position.array);
        drawn.add(tubes.group);
      }
      drawn.position.copy(offset);
      drawn.frustumCulled = false; // it moves far from its rest box
      this.object.add(drawn);
      const shapes = new ObstacleMeshes(obstacles, restBounds);
      shapes.group.position.copy(offset);
      this.object.add(shapes.group);
      this.bounds.union(restBounds.clone().translate(offset));
      // The strain view's buffers, painted every frame.
      const strains = {
        edges: new Float32Array(this.strainRest.length),
        vertices: new Float32Array(this.vertexCount),
        segments: new Float32Array(this.rodSegments.length),
        segmentColours: new Float32Array(3 * this.rodSegments.length),
      };
      return { geometry, drawn, shapes, offset, tubes, surface, color, strains };
    });
    // What a drag may grab (DragController): each copy, picked where it is drawn: a surface by its
    // triangles, a rod by its vertices within pickSize of the pointer's ray.
    this.bodies = this.copies.map(({ geometry, offset }) => ({
      surface: {
        positions: this.rest,
        triangles: this.hasSurface ? shape.triangles : null,
        points: rodVertices.length > 0 ? rodVertices : null,
        pickRadius: pickSize,
      },
      offset,
      u: null,
      drawnPositions: geometry.attributes.position.array,
    }));
    this.obstacles = this.copies.flatMap(({ shapes }) => shapes.movable);
    this.obstacleCount = obstacles.length;
    this.labels = new CanvasLabels(this.object);
  }

  get hasClusters() {
    return false;
  }

  /**
   * answer.u[i]: simulator i's vertex displacements (all x, then all y, then all z);
   * obstacleOffsets[i]: its obstacles' translations (absent: where the recipe puts them).
   */
  show({ u, obstacleOffsets }) {
    const n = this.vertexCount;
    u.forEach((U, i) => {
      const { geometry, shapes, tubes } = this.copies[i];
      shapes.update(obstacleOffsets?.[i] ?? Array.from({ length: this.obstacleCount }, () => [0, 0, 0]));
      const positions = geometry.attributes.position.array;
      for (let v = 0; v < n; v++) {
        for (let d = 0; d < 3; d++) positions[3 * v + d] = this.rest[3 * v + d] + U[d * n + v];
      }
      geometry.attributes.position.needsUpdate = true;
      if (this.hasSurface) geometry.computeVertexNormals();
      tubes?.update(positions);
      if (this.strainView) this.paintStrain(this.copies[i]);
      this.bodies[i].u = U;
    });
  }

  // A copy's vertices and segments in the strain view's colours, where they are drawn now.
  paintStrain({ geometry, tubes, strains }) {
    const drawn = geometry.attributes.position.array;
    edgeStrains(this.strainEdges, this.strainRest, drawn, strains.edges);
    const vertexColours = paintStrains(
      vertexStrains(this.strainEdges, strains.edges, this.vertexCount, strains.vertices),
      geometry.attributes.color.array,
    );
    geometry.attributes.color.needsUpdate = true;
    if (tubes) {
      this.rodSegments.forEach((edge, s) => (strains.segments[s] = strains.edges[edge]));
      tubes.setColours(paintStrains(strains.segments, strains.segmentColours), vertexColours);
    }
  }

  /** Labels each copy above its rest place, replacing any before. */
  setLabels(texts) {
    const size = this.restBounds.getSize(new THREE.Vector3());
    const height = 0.08 * Math.max(size.x, size.y, size.z);
    const y = this.restBounds.max.y + 1.5 * height;
    this.labels.set(
      texts,
      this.copies.map(({ offset }) => offset.clone().setY(y)),
      height,
    );
  }

  /**
   * strain: paint by edge strain (the strain view), else one colour per solver; the teaching
   * views of a skinned body do not apply.
   */
  applyColouring({ strain = false }) {
    this.strainView = strain;
    for (const copy of this.copies) {
      const { geometry, surface, tubes, color } = copy;
      // The vertex and instance colours multiply the material's: white lets them show alone.
      surface?.material.color.set(strain ? 0xffffff : color);
      tubes?.tubes.material.color.set(strain ? 0xffffff : color);
      if (strain) {
        this.paintStrain(copy);
      } else {
        geometry.attributes.color.array.fill(1);
        geometry.attributes.color.needsUpdate = true;
        tubes?.setColours(null, null);
      }
    }
  }

  dispose() {
    this.labels.dispose();
    for (const { geometry, drawn, shapes, tubes } of this.copies) {
      geometry.dispose();
      tubes?.dispose(); // its instance buffers, which disposing geometry and material leaves
      drawn.traverse((object) => {
        object.geometry?.dispose();
        object.material?.dispose();
      });
      shapes.dispose();
    }
  }
}
