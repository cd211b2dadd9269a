/** Playground debug drawing for environment interaction (the EnvironmentInteraction component)
 * and the level it walks in:
 *   - ColliderView: every box Collider drawn solid (walls warm, other layers grey), so a level
 *     loaded by a scene's "level" is visible;
 *   - InteractionView: per character, the detection box (wireframe, the root's rotation), the
 *     closest wall point (red), the target (green: where the palm centre is sent), the wall
 *     normal, and a label with state / side / weights / palm distance;
 *   - InteractionPanel: a HUD block with a toggle per debug layer and a plot of both arms'
 *     weights (and the rise) over the last seconds.
 * Everything here reads the world; nothing is written to it. */
import * as THREE from 'three';
import { Collider, EnvironmentInteraction, type Entity, type EnvironmentInteractionData, type World } from '../bridge/browser.js';
import type { WorldView } from '../three/index.js';

export type DebugLayer = 'level' | 'box' | 'closest' | 'target' | 'labels';
export const DEBUG_LAYERS: readonly DebugLayer[] = ['level', 'box', 'closest', 'target', 'labels'];

/** Solid boxes for the world's box colliders (shape Box; others are not drawn): walls warm with
 * dark edges (so they never read as the floor), other layers grey; both cast and receive the
 * key light's shadows. A wall between the camera and the subject is drawn see-through
 * (fadeBetween), so a walk between walls is never hidden behind one. */
export class ColliderView implements WorldView {
  readonly object = new THREE.Group();
  private readonly items: { e: Entity; mesh: THREE.Mesh; box: THREE.Box3 }[] = [];
  private readonly solid: THREE.MeshStandardMaterial[];
  private readonly faded: THREE.MeshStandardMaterial[];
  private readonly inverse = new THREE.Matrix4();
  private readonly ray = new THREE.Ray();
  private readonly hit = new THREE.Vector3();
  constructor(private readonly world: World, entities: readonly Entity[], wallLayers = 2) {
    this.object.name = 'colliders';
    const wall = new THREE.MeshStandardMaterial({ color: 0xd2c3a6, roughness: 0.85 });
    const other = new THREE.MeshStandardMaterial({ color: 0x8e959e, roughness: 0.95 });
    this.solid = [wall, other];
    this.faded = this.solid.map((m) => {
      const f = m.clone();
      f.transparent = true;
      f.opacity = 0.18;
      f.depthWrite = false;
      return f;
    });
    const edges = new THREE.LineBasicMaterial({ color: 0x3a332a, transparent: true, opacity: 0.55 });
    for (const e of entities) {
      if (!world.has(e, Collider)) continue;
      const c = world.get(e, Collider);
      if (c.shape !== 'Box') continue;
      // A floor slab whose top is the playground's floor plane (y = 0) is left to that plane.
      const xf = world.worldTransform(e);
      if ((c.layer & wallLayers) === 0 && Math.abs(xf.t[1] + c.center[1] + c.size[1] / 2) < 1e-3) continue;
      const geometry = new THREE.BoxGeometry(c.size[0], c.size[1], c.size[2]);
      // walls and obstacles (a wall layer, or raised above the floor) warm; slabs, curbs and ramps grey
      const isWall = (c.layer & wallLayers) !== 0 || c.size[1] >= 0.25;
      const mesh = new THREE.Mesh(geometry, isWall ? wall : other);
      mesh.castShadow = mesh.receiveShadow = true;
      mesh.position.set(c.center[0], c.center[1], c.center[2]);
      const outline = new THREE.LineSegments(new THREE.EdgesGeometry(geometry), edges);
      mesh.add(outline);
      const holder = new THREE.Group();
      holder.add(mesh);
      this.object.add(holder);
      this.items.push({ e, mesh, box: new THREE.Box3(new THREE.Vector3(-c.size[0] / 2, -c.size[1] / 2, -c.size[2] / 2), new THREE.Vector3(c.size[0] / 2, c.size[1] / 2, c.size[2] / 2)) });
    }
  }
  update(): void {
    for (const { e, mesh } of this.items) {
      const xf = this.world.worldTransform(e);
      const holder = mesh.parent as THREE.Object3D;
      holder.position.set(...xf.t);
      holder.quaternion.set(...xf.r);
      holder.scale.set(...xf.s);
    }
  }
  /** Boxes that stand between `eye` and any of `points` are drawn see-through, the others
   * solid. Returns how many are see-through. */
  fadeBetween(eye: THREE.Vector3, points: readonly THREE.Vector3[]): number {
    this.object.updateMatrixWorld(true);
    let n = 0;
    for (const { mesh, box } of this.items) {
      this.inverse.copy(mesh.matrixWorld).invert();
      const local = eye.clone().applyMatrix4(this.inverse);
      let between = false;
      for (const p of points) {
        const to = p.clone().applyMatrix4(this.inverse);
        const len = to.distanceTo(local);
        this.ray.set(local, to.sub(local).normalize());
        const at = this.ray.intersectBox(box, this.hit);
        if (at !== null && at.distanceTo(local) < len) {
          between = true;
          break;
        }
      }
      const k = this.solid.indexOf(mesh.material as THREE.MeshStandardMaterial);
      const kind = k >= 0 ? k : this.faded.indexOf(mesh.material as THREE.MeshStandardMaterial);
      mesh.material = between ? this.faded[kind]! : this.solid[kind]!;
      mesh.castShadow = !between;
      if (between) n++;
    }
    return n;
  }
  dispose(): void {
    for (const { mesh } of this.items) mesh.geometry.dispose();
  }
}

/** A text label as a sprite (canvas texture). */
export function label(): { sprite: THREE.Sprite; set(text: string): void } {
  const canvas = document.createElement('canvas');
  canvas.width = 512;
  canvas.height = 96;
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  const texture = new THREE.CanvasTexture(canvas);
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthTest: false, transparent: true }));
  sprite.scale.set(0.8, 0.15, 1);
  sprite.renderOrder = 10;
  let last = '';
  return {
    sprite,
    set(text: string) {
      if (text === last) return;
      last = text;
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.fillStyle = 'rgba(20, 23, 28, 0.78)';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.fillStyle = '#e8edf3';
      ctx.font = '26px ui-monospace, monospace';
      text.split('\n').forEach((line, i) => ctx.fillText(line, 12, 36 + i * 34));
      texture.needsUpdate = true;
    },
  };
}

/** Debug drawing of one character's EnvironmentInteraction. */
export class InteractionView implements WorldView {
  readonly object = new THREE.Group();
  readonly layers: Record<Exclude<DebugLayer, 'level'>, THREE.Object3D>;
  private readonly box: THREE.LineSegments;
  private readonly closest: THREE.Mesh;
  private readonly target: THREE.Mesh;
  private readonly normal: THREE.ArrowHelper;
  private readonly text = label();
  constructor(private readonly world: World, readonly entity: Entity) {
    this.object.name = 'interaction';
    this.box = new THREE.LineSegments(new THREE.EdgesGeometry(new THREE.BoxGeometry(1, 1, 1)), new THREE.LineBasicMaterial({ color: 0x4fa3ff }));
    this.closest = new THREE.Mesh(new THREE.SphereGeometry(0.03, 16, 12), new THREE.MeshBasicMaterial({ color: 0xff3030, depthTest: false }));
    this.target = new THREE.Mesh(new THREE.SphereGeometry(0.022, 16, 12), new THREE.MeshBasicMaterial({ color: 0x40e070, depthTest: false }));
    this.closest.renderOrder = this.target.renderOrder = 8;
    this.normal = new THREE.ArrowHelper(new THREE.Vector3(1, 0, 0), new THREE.Vector3(), 0.2, 0xff3030);
    const closestLayer = new THREE.Group();
    closestLayer.add(this.closest, this.normal);
    this.layers = { box: this.box, closest: closestLayer, target: this.target, labels: this.text.sprite };
    this.object.add(this.box, closestLayer, this.target, this.text.sprite);
  }
  data(): EnvironmentInteractionData {
    return this.world.get(this.entity, EnvironmentInteraction);
  }
  update(): void {
    const d = this.data();
    const root = this.world.worldTransform(this.entity);
    this.box.position.set(...d.boxCenter);
    this.box.quaternion.set(...root.r);
    this.box.scale.set(d.boxHalfExtents[0] * 2, d.boxHalfExtents[1] * 2, d.boxHalfExtents[2] * 2);
    const engaged = d.state !== 'Search';
    this.closest.visible = engaged;
    this.normal.visible = engaged;
    this.target.visible = engaged;
    this.closest.position.set(...d.closestPoint);
    this.normal.position.set(...d.closestPoint);
    this.normal.setDirection(new THREE.Vector3(...d.normal).normalize());
    this.target.position.set(...d.target);
    this.text.sprite.position.set(root.t[0], root.t[1] + 2.15, root.t[2]);
    this.text.set(`${d.state} ${d.side}  palm ${(d.palmDistance * 100).toFixed(1)} cm\nR ${d.rightWeight.toFixed(2)} L ${d.leftWeight.toFixed(2)} rise ${d.rise.toFixed(2)}`);
  }
  dispose(): void {
    this.box.geometry.dispose();
    this.closest.geometry.dispose();
    this.target.geometry.dispose();
  }
}

/** HUD block: a checkbox per debug layer and a plot of both arms' weights over the last
 * seconds (right red, left blue, rise grey). */
export class InteractionPanel {
  readonly element = document.createElement('div');
  private readonly canvas = document.createElement('canvas');
  private readonly history: { r: number; l: number; rise: number }[] = [];
  private readonly stateEl = document.createElement('div');
  readonly states: string[] = [];
  constructor(private readonly view: InteractionView, private readonly level: ColliderView | null, private readonly onChange: () => void, private readonly seconds = 6, private readonly rate = 60) {
    this.element.id = 'interaction';
    this.element.style.marginTop = '8px';
    const title = document.createElement('div');
    title.textContent = 'Environment interaction';
    title.style.fontWeight = '600';
    this.stateEl.id = 'interaction-state';
    this.stateEl.className = 'mono';
    this.element.append(title, this.stateEl);
    const toggles = document.createElement('div');
    for (const layer of DEBUG_LAYERS) {
      const lab = document.createElement('label');
      lab.style.marginRight = '8px';
      const box = document.createElement('input');
      box.type = 'checkbox';
      // the detection box and the text labels are debugging detail: off until asked for
      box.checked = layer !== 'box' && layer !== 'labels';
      box.id = `debug-${layer}`;
      box.addEventListener('change', () => this.show(layer, box.checked));
      lab.append(box, ` ${layer}`);
      toggles.append(lab);
      if (!box.checked && layer !== 'level') view.layers[layer].visible = false;
    }
    this.canvas.width = 260;
    this.canvas.height = 54;
    this.canvas.id = 'interaction-plot';
    this.canvas.style.display = 'block';
    this.canvas.style.marginTop = '4px';
    this.element.append(toggles, this.canvas);
  }
  show(layer: DebugLayer, on: boolean): void {
    if (layer === 'level') {
      if (this.level) this.level.object.visible = on;
    } else {
      this.view.layers[layer].visible = on;
    }
    this.onChange();
  }
  /** After a step: record the weights (drawn by refresh(), once a frame however many steps it ran). */
  record(): void {
    const d = this.view.data();
    this.history.push({ r: d.rightWeight, l: d.leftWeight, rise: d.rise });
    if (this.history.length > this.seconds * this.rate) this.history.shift();
    if (this.states[this.states.length - 1] !== d.state) this.states.push(d.state);
  }
  /** Shows the last step: the state line and the plot. */
  refresh(): void {
    const d = this.view.data();
    this.stateEl.textContent = `${d.state} · ${d.side} · R ${d.rightWeight.toFixed(2)} L ${d.leftWeight.toFixed(2)} · palm ${(d.palmDistance * 100).toFixed(1)} cm`;
    this.draw();
  }
  private draw(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const { width: w, height: h } = this.canvas;
    ctx.fillStyle = '#14171c';
    ctx.fillRect(0, 0, w, h);
    const n = this.seconds * this.rate;
    const series: ['r' | 'l' | 'rise', string][] = [
      ['rise', '#8a8f98'],
      ['r', '#ff6b6b'],
      ['l', '#4fa3ff'],
    ];
    for (const [key, color] of series) {
      ctx.strokeStyle = color;
      ctx.beginPath();
      this.history.forEach((s, i) => {
        const x = ((i + n - this.history.length) / n) * w;
        const y = h - 4 - s[key] * (h - 8);
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.stroke();
    }
  }
}
