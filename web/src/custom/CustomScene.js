// The scene "custom": a model the user baked in the page ("Your model": ui/yourModel.js, the
// bake in bake/) or an asset someone hosts (?asset=URL), opened as a gallery body or, with "On
// the ground", in a scene with contact over a ground plane (open/openOnGround.js); and the brush
// that paints and pins it for the next bake, on its rest shape (ui/modelBrush.js).
import { Vector3 } from 'three';
import { fetchBytes } from '../../../wasm/js/fetchBytes.js';
import { BakeClient } from '../bake/BakeClient.js';
import { BrushMarkers } from '../render/BrushMarkers.js';
import { scenes } from '../scenes.js';
import { yourModel } from '../ui/yourModel.js';

export class CustomScene {
  /**
   * demo: the page (open, reset, setPaused, showProgress, and its scene, stage, paused, view
   * and drag);
   * status: its StatusBoard; onGround: whether "On the ground" starts ticked (?ground=1).
   */
  constructor(demo, status, onGround) {
    this.demo = demo;
    this.status = status;
    this.hostedAsset = null; // ?asset=: the address of the asset open as "custom"
    const element = (id) => document.getElementById(id);
    this.groundToggle = element('ground-toggle');
    this.ground = element('bake-ground');
    this.ground.checked = onGround;
    this.ground.addEventListener('change', () => {
      if (demo.scene === 'custom') demo.open('custom', {}).catch((e) => status.fail(e));
    });
    this.markers = new BrushMarkers(demo.view.scene);
    this.tool = 'drag';
    this.regions = [[], []]; // painted, pinned
    const elements = Object.fromEntries(
      [
        ['input', 'your-model-input'],
        ['stages', 'bake-stages'],
        ['cancel', 'bake-cancel'],
        ['save', 'bake-save'],
        ['saveRecipe', 'bake-save-recipe'],
        ['options', 'bake-options'],
        ['modes', 'bake-modes'],
        ['cubature', 'bake-cubature'],
        ['units', 'bake-units'],
        ['unitsLabel', 'bake-units-label'],
        ['pinLowest', 'bake-pin-lowest'],
        ['brush', 'bake-brush'],
        ['radius', 'bake-brush-radius'],
        ['youngs', 'bake-brush-youngs'],
        ['clear', 'bake-clear'],
        ['again', 'bake-again'],
      ].map(([key, id]) => [key, element(id)]),
    );
    this.bakeBar = yourModel(
      { ...elements, canvas: demo.view.renderer.domElement },
      new BakeClient((bake) => {
        status.baking(bake);
        this.bakeBar.show(bake);
      }),
      {
        onBaked: (asset, name) => {
          status.dismissNotices('bake'); // what went wrong with earlier picks no longer holds
          return this.openBaked(asset, name);
        },
        onError: (e) => status.warn(e.message, 'bake'),
        onWarning: (text) => status.warn(text, 'bake'),
        onTool: (tool) => {
          const starting = this.tool === 'drag' && tool !== 'drag';
          this.tool = tool;
          this.applyBrush(starting);
        },
        onRegions: (painted, pinned) => {
          this.regions = [painted, pinned];
          this.applyBrush();
        },
      },
    );
  }

  /** Whether the scene "custom" opens on the ground. */
  get onGround() {
    return this.ground.checked;
  }

  /** What the page's URL keeps of it (a model baked here lives in this tab only). */
  urlState() {
    const hosted = this.demo.scene === 'custom' && this.hostedAsset !== null;
    return { asset: hosted ? this.hostedAsset : undefined, ground: hosted && this.onGround };
  }

  // A model the user baked: opened from its bytes.
  async openBaked(asset, name) {
    this.setAsset({ title: `Your model: ${name}` }, asset);
    this.hostedAsset = null;
    await this.demo.open('custom', {});
  }

  // The scene "custom" becomes the asset of these bytes (scene: its title, and the file name the
  // reader's messages give it, by default custom.smfem).
  setAsset(scene, bytes) {
    if (scenes.custom?.url?.protocol === 'blob:') URL.revokeObjectURL(scenes.custom.url);
    scenes.custom = { ...scene, url: new URL(URL.createObjectURL(new Blob([bytes]))) };
  }

  /**
   * ?asset=URL: a baked asset someone hosts (its URL kept in the page's, so that a copied link
   * opens it again). Where it cannot be read, a notice says why and the result is false: the
   * caller opens the gallery instead.
   */
  async openHosted(address, overrides) {
    // The file as the URL names it: the title and the reader's messages name it so.
    const file = address.split(/[?#]/)[0].split('/').pop() || address;
    let url;
    try {
      url = new URL(address, location.href);
    } catch {
      this.status.warn(`asset=${address} is not an address the page can download from.`);
      return false;
    }
    let bytes;
    try {
      bytes = await fetchBytes(url, (loaded, total) =>
        this.demo.showProgress(total ? (0.45 * loaded) / total : null),
      );
    } catch (error) {
      // fetch throws a TypeError where the server could not be reached or did not let this page
      // read its answer (a server of another origin without CORS); fetchBytes throws on an
      // HTTP error status, which the server let the page read.
      this.status.warn(
        `asset=${address} could not be downloaded (${error.message})` +
          (error instanceof TypeError
            ? ': the server could not be reached, or did not let this page read the file. A server ' +
              "of another origin than the page's must send Access-Control-Allow-Origin with it (CORS)."
            : '.'),
      );
      return false;
    }
    this.setAsset({ title: `Hosted: ${file}`, sourceName: file }, bytes);
    this.hostedAsset = address;
    try {
      await this.demo.open('custom', overrides);
      return true;
    } catch (error) {
      // The bytes arrived: what refused them says why, naming the file (the asset reader's
      // "file: header: ...").
      this.hostedAsset = null;
      this.status.warn(`asset=${address} could not be opened: ${error.message}`);
      return false;
    }
  }

  /** A scene opened (this one or another): its toggles and the brush follow. */
  opened(name) {
    this.groundToggle.hidden = name !== 'custom';
    if (name === 'custom') {
      this.bakeBar.opened(Math.max(...this.demo.stage.bounds.getSize(new Vector3()).toArray()));
    }
    this.applyBrush();
  }

  // While the brush paints or pins, the model is shown at rest (`starting`: put back there),
  // paused (playing puts the brush back to dragging), with the regions marked; a press on it
  // takes the rest position of the vertex under the pointer.
  applyBrush(starting = false) {
    const { demo } = this;
    const brushing = this.tool !== 'drag' && demo.scene === 'custom';
    demo.drag.tool = brushing
      ? (body, vertex) => {
          const positions = demo.stage.bodies[body].surface.positions;
          try {
            this.bakeBar.brushAt([...positions.subarray(3 * vertex, 3 * vertex + 3)]);
          } catch (error) {
            this.status.warn(error.message);
          }
        }
      : null;
    if (brushing) this.markers.show(...this.regions, demo.stage.bodies[0].offset);
    this.markers.visible = brushing;
    if (demo.scene === 'custom') this.status.brushIs(brushing ? this.tool : 'drag');
    demo.view.invalidate();
    if (brushing && starting) {
      demo.setPaused(true);
      demo.reset().catch((e) => this.status.fail(e));
    }
  }

  /** The page plays: the brush, which works on the rest shape, goes back to dragging. */
  playing() {
    if (this.tool !== 'drag') this.bakeBar.stopBrushing();
  }

  /** paintRegion and pinRegion, for window.smfem. */
  paintRegion(center, radius, youngs) {
    return this.bakeBar.paintRegion(center, radius, youngs);
  }

  pinRegion(center, radius) {
    return this.bakeBar.pinRegion(center, radius);
  }
}
