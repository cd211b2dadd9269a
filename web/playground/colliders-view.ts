/** Playground debug layers for the collide and controller modules:
 *   - ColliderWireView ("colliders"): every primitive Collider (sphere, capsule, cylinder, box)
 *     as a wireframe in its entity's world transform, coloured by its lowest layer bit; mesh
 *     colliders are drawn by their level's own solid view, not here.
 *   - ControllerView ("controllers"): each CharacterController's capsule as the core uses it
 *     (position + appliedCenter, appliedHeight), green while grounded, orange in the air, with
 *     its last move's contact normals as short lines.
 * Both read the world after each step; nothing is written. */
import * as THREE from 'three';
import { CharacterController, Collider, type ColliderData, type Entity, type World } from '../bridge/browser.js';
import type { WorldView } from '../three/index.js';

const LAYER_COLOURS = [0x9aa3ad, 0xffb74d, 0x4fc3f7, 0xba68c8, 0x81c784, 0xe57373];

function layerColour(layer: number): number {
  for (let bit = 0; bit < LAYER_COLOURS.length; bit++) if (layer & (1 << bit)) return LAYER_COLOURS[bit]!;
  return LAYER_COLOURS[0]!;
}

/** A shape's geometry in the entity's frame, its long axis turned onto `direction`. */
function shapeGeometry(c: ColliderData): THREE.BufferGeometry | null {
  let g: THREE.BufferGeometry;
  switch (c.shape) {
    case 'Box':
      g = new THREE.BoxGeometry(c.size[0], c.size[1], c.size[2]);
      break;
    case 'Sphere':
      g = new THREE.SphereGeometry(c.radius, 16, 10);
      break;
    case 'Capsule':
      g = new THREE.CapsuleGeometry(c.radius, Math.max(c.height - 2 * c.radius, 0), 6, 16);
      break;
    case 'Cylinder':
      g = new THREE.CylinderGeometry(c.radius, c.radius, c.height, 16, 1);
      break;
    default:
      return null;
  }
  if (c.shape === 'Capsule' || c.shape === 'Cylinder') {
    if (c.direction === 'X') g.rotateZ(-Math.PI / 2);
    else if (c.direction === 'Z') g.rotateX(Math.PI / 2);
  }
  g.translate(c.center[0], c.center[1], c.center[2]);
  return g;
}

export class ColliderWireView implements WorldView {
  readonly object = new THREE.Group();
  private readonly items: { e: Entity; holder: THREE.Object3D; geometry: THREE.BufferGeometry }[] = [];
  private readonly materials = new Map<number, THREE.LineBasicMaterial>();

  constructor(private readonly world: World, entities: readonly Entity[]) {
    this.object.name = 'layer:colliders';
    for (const e of entities) {
      if (!world.has(e, Collider)) continue;
      const shape = shapeGeometry(world.get(e, Collider));
      if (!shape) continue;
      const geometry = new THREE.WireframeGeometry(shape);
      shape.dispose();
      const colour = layerColour(world.get(e, Collider).layer);
      let material = this.materials.get(colour);
      if (!material) {
        material = new THREE.LineBasicMaterial({ color: colour, transparent: true, opacity: 0.7 });
        this.materials.set(colour, material);
      }
      const holder = new THREE.Group();
      holder.add(new THREE.LineSegments(geometry, material));
      this.object.add(holder);
      this.items.push({ e, holder, geometry });
    }
  }

  /** Colliders drawn (primitives only). */
  get count(): number {
    return this.items.length;
  }

  update(): void {
    for (const { e, holder } of this.items) {
      if (!this.world.alive(e)) {
        holder.visible = false;
        continue;
      }
      const xf = this.world.worldTransform(e);
      holder.position.set(...xf.t);
      holder.quaternion.set(...xf.r);
      holder.scale.set(...xf.s);
    }
  }

  dispose(): void {
    for (const { geometry } of this.items) geometry.dispose();
    for (const m of this.materials.values()) m.dispose();
  }
}

export class ControllerView implements WorldView {
  readonly object = new THREE.Group();
  private readonly grounded = new THREE.LineBasicMaterial({ color: 0x66bb6a });
  private readonly airborne = new THREE.LineBasicMaterial({ color: 0xffa726 });
  private readonly normals = new THREE.LineBasicMaterial({ color: 0xef5350 });
  private readonly items: { e: Entity; lines: THREE.LineSegments; contacts: THREE.LineSegments; size: string }[] = [];

  constructor(private readonly world: World, entities: readonly Entity[]) {
    this.object.name = 'layer:controllers';
    for (const e of entities) {
      if (!world.has(e, CharacterController)) continue;
      const lines = new THREE.LineSegments(new THREE.BufferGeometry(), this.grounded);
      // Up to three contact normals, each a segment, in a buffer written in place each step.
      const normals = new THREE.BufferGeometry();
      normals.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * 6), 3).setUsage(THREE.DynamicDrawUsage));
      const contacts = new THREE.LineSegments(normals, this.normals);
      contacts.frustumCulled = false;
      this.object.add(lines, contacts);
      this.items.push({ e, lines, contacts, size: '' });
    }
  }

  update(): void {
    for (const item of this.items) {
      const { e, lines, contacts } = item;
      if (!this.world.alive(e) || !this.world.has(e, CharacterController)) {
        lines.visible = contacts.visible = false;
        continue;
      }
      const c = this.world.get(e, CharacterController);
      const height = c.appliedHeight > 0 ? c.appliedHeight : c.height;
      const center = c.appliedHeight > 0 ? c.appliedCenter : c.center;
      // The capsule is upright and unrotated (controller.h): rebuild it only when its size changes.
      const size = `${c.radius} ${height}`;
      if (size !== item.size) {
        const shape = new THREE.CapsuleGeometry(c.radius, Math.max(height - 2 * c.radius, 0), 4, 12);
        lines.geometry.dispose();
        lines.geometry = new THREE.WireframeGeometry(shape);
        shape.dispose();
        item.size = size;
      }
      const p = this.world.worldTransform(e).t;
      lines.position.set(p[0] + center[0], p[1] + center[1], p[2] + center[2]);
      lines.material = c.grounded ? this.grounded : this.airborne;
      lines.visible = true;
      const hits = Math.min(c.hitCount, 3);
      const at = contacts.geometry.getAttribute('position');
      const normals = [c.hitNormal0, c.hitNormal1, c.hitNormal2];
      for (let k = 0; k < hits; k++) {
        const n = normals[k]!;
        at.setXYZ(2 * k, 0, 0, 0);
        at.setXYZ(2 * k + 1, n[0] * 0.3, n[1] * 0.3, n[2] * 0.3);
      }
      at.needsUpdate = true;
      contacts.geometry.setDrawRange(0, 2 * hits);
      contacts.position.copy(lines.position);
      contacts.visible = hits > 0;
    }
  }

  dispose(): void {
    for (const { lines, contacts } of this.items) {
      lines.geometry.dispose();
      contacts.geometry.dispose();
    }
    this.grounded.dispose();
    this.airborne.dispose();
    this.normals.dispose();
  }
}
