/** Grip drawn as a grip editor draws it: GripSurface shapes as green wireframes (or, with
 * `solid`, as shaded meshes: the held prop itself), and
 * each holder's palms where the grip puts them (mirrored anchors for the other hand): a
 * box for the palm, an arrow along the fingers (+Z), a dashed line out of the palm (+Y)
 * and a short tick on the thumb side; main hand yellow, support hand blue. */
import * as THREE from 'three';
import { GripHolder, GripSurface, type Entity, type GripSurfaceData, type World } from '../bridge/api.js';
import { applyJointTransform, type WorldView } from './pose.js';

export const GRIP_COLORS = { surface: 0x5cff7a, main: 0xffd54f, support: 0x4fc3f7 } as const;

function surfaceGeometry(s: GripSurfaceData, solid: boolean): THREE.BufferGeometry {
  let g: THREE.BufferGeometry;
  switch (s.shape) {
    case 'Sphere':
      g = new THREE.SphereGeometry(s.radius, 14, 8);
      break;
    case 'Box':
      g = new THREE.BoxGeometry(s.size[0], s.size[1], s.size[2]);
      break;
    case 'Capsule':
      g = new THREE.CapsuleGeometry(s.radius, Math.max(s.height - 2 * s.radius, 0), 4, 14);
      break;
    default:
      g = new THREE.CylinderGeometry(s.radius, s.radius, s.height, 16, 1);
  }
  // three builds cylinders and capsules along Y; turn them onto the surface's axis.
  if (s.shape === 'Cylinder' || s.shape === 'Capsule') {
    if (s.direction === 'X') g.rotateZ(-Math.PI / 2);
    else if (s.direction === 'Z') g.rotateX(Math.PI / 2);
  }
  g.translate(s.center[0], s.center[1], s.center[2]);
  if (solid) return g;
  const wire = new THREE.WireframeGeometry(g);
  g.dispose();
  return wire;
}

/** One palm marker in the palm frame's own axes (metres). */
function palmMarker(color: number, thumbSign: number): THREE.Group {
  const group = new THREE.Group();
  const line = new THREE.LineBasicMaterial({ color, depthTest: false, transparent: true });
  const box = new THREE.LineSegments(new THREE.EdgesGeometry(new THREE.BoxGeometry(0.08, 0.025, 0.09)), line);
  group.add(box);
  const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(0, 0, 0), 0.14, color, 0.035, 0.022);
  group.add(arrow);
  const normal = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(0, 0, 0), new THREE.Vector3(0, 0.12, 0)]);
  const dashed = new THREE.Line(normal, new THREE.LineDashedMaterial({ color, dashSize: 0.012, gapSize: 0.008, depthTest: false, transparent: true }));
  dashed.computeLineDistances();
  group.add(dashed);
  const tick = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(0.04 * thumbSign, 0, 0), new THREE.Vector3(0.075 * thumbSign, 0, 0)]);
  group.add(new THREE.Line(tick, line));
  group.renderOrder = 10;
  return group;
}

export interface GripViewOptions {
  /** Draw surfaces as shaded meshes (the prop) instead of green wireframes. Default false. */
  solid?: boolean;
  /** Colour of solid surfaces. Default a dark gunmetal grey. */
  color?: number;
  /** Draw the palm markers. Default true. */
  palms?: boolean;
  /** Draw the GripSurface shapes. Default true (false: palms only). */
  surfaces?: boolean;
}

export class GripView implements WorldView {
  readonly object = new THREE.Group();
  private readonly surfaces = new Map<Entity, { key: string; lines: THREE.LineSegments | THREE.Mesh }>();
  private readonly palms = new Map<string, THREE.Group>();
  private readonly surfaceMaterial: THREE.Material;
  private readonly m = new THREE.Matrix4();
  private readonly solid: boolean;
  private readonly showPalms: boolean;
  private readonly showSurfaces: boolean;

  /** `entities`: the world entities to look at (e.g. a loaded scene's). */
  constructor(
    readonly world: World,
    readonly entities: readonly Entity[],
    options: GripViewOptions = {},
  ) {
    this.object.name = 'grip';
    this.solid = options.solid ?? false;
    this.showPalms = options.palms ?? true;
    this.showSurfaces = options.surfaces ?? true;
    this.surfaceMaterial = this.solid
      ? new THREE.MeshStandardMaterial({ color: options.color ?? 0x3b4048, roughness: 0.5, metalness: 0.15 })
      : new THREE.LineBasicMaterial({ color: GRIP_COLORS.surface });
    this.update();
  }

  /** Palm markers currently drawn, by "holder:role" (for tests and pickers). */
  palm(holder: Entity, role: 'main' | 'support'): THREE.Group | undefined {
    return this.palms.get(`${holder}:${role}`);
  }

  update(): void {
    const w = this.world;
    for (const e of this.entities) {
      if (!this.showSurfaces || !w.alive(e) || !w.has(e, GripSurface)) {
        this.dropSurface(e);
        continue;
      }
      const data = w.get(e, GripSurface);
      const key = JSON.stringify(data);
      let s = this.surfaces.get(e);
      if (!s || s.key !== key) {
        this.dropSurface(e);
        const geometry = surfaceGeometry(data, this.solid);
        s = { key, lines: this.solid ? new THREE.Mesh(geometry, this.surfaceMaterial) : new THREE.LineSegments(geometry, this.surfaceMaterial) };
        s.lines.castShadow = this.solid;
        s.lines.name = `surface:${e}`;
        s.lines.matrixAutoUpdate = false;
        this.surfaces.set(e, s);
        this.object.add(s.lines);
      }
      s.lines.matrix.copy(applyJointTransform(w.worldTransform(e), this.m));
    }
    const seen = new Set<string>();
    for (const e of this.entities) {
      if (!this.showPalms || !w.alive(e) || !w.has(e, GripHolder)) continue;
      const mainHand = w.get(e, GripHolder).mainHand;
      for (const role of ['main', 'support'] as const) {
        const anchor = w.grip.anchor(e, role);
        if (!anchor) continue;
        const right = (role === 'main') === (mainHand === 'Right');
        const key = `${e}:${role}`;
        const color = role === 'main' ? GRIP_COLORS.main : GRIP_COLORS.support;
        let g = this.palms.get(key);
        if (!g || g.userData.right !== right) {
          if (g) this.drop(g);
          // the thumb is on the palm frame's -X side for a right hand, +X for a left one
          g = palmMarker(color, right ? -1 : 1);
          g.userData.right = right;
          g.name = `palm:${key}`;
          g.matrixAutoUpdate = false;
          this.palms.set(key, g);
          this.object.add(g);
        }
        g.matrix.copy(applyJointTransform({ ...anchor, s: [1, 1, 1] }, this.m));
        seen.add(key);
      }
    }
    for (const [key, g] of this.palms) {
      if (!seen.has(key)) {
        this.drop(g);
        this.palms.delete(key);
      }
    }
  }

  private dropSurface(e: Entity): void {
    const s = this.surfaces.get(e);
    if (!s) return;
    s.lines.removeFromParent();
    s.lines.geometry.dispose();
    this.surfaces.delete(e);
  }

  private drop(g: THREE.Group): void {
    g.removeFromParent();
    g.traverse((o) => {
      if (o instanceof THREE.Mesh || o instanceof THREE.Line) o.geometry.dispose();
    });
  }

  dispose(): void {
    for (const e of [...this.surfaces.keys()]) this.dropSurface(e);
    for (const g of this.palms.values()) this.drop(g);
    this.palms.clear();
    this.surfaceMaterial.dispose();
    this.object.removeFromParent();
  }
}
