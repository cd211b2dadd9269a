/** What a scene is about, for the camera (camera.ts) and the framing checks (api.ts
 * `limber.framing()`): its subject characters and the box the picture must hold.
 *
 *   hands  a scene with a GripHolder and fewer than three animated characters: each holder's
 *          head, both hands and the held prop (the grip is the point; the legs can leave the
 *          frame);
 *   group  three or more animated characters (nav agents, a crowd, holders among them): every
 *          body;
 *   body   one animated character (the camera follows it), or the characters and their IK
 *          targets and hints of a posed scene.
 *
 * Boxes come from the core's model pose (joints, grown by the flesh around them) and the held
 * prop's drawn surfaces, as of the last step. */
import * as THREE from 'three';
import { GripHolder, GripProfile, GripSurface, Rig, Transform, type Entity, type World } from '../bridge/browser.js';
import { applyJointTransform } from '../three/index.js';
import type { Loaded } from './scene-load.js';
import type { SceneViews } from './scene-views.js';

export type SubjectKind = 'hands' | 'body' | 'group';

/** Flesh around the joints, metres: the head's top and face, a torso's half-depth, a heel. */
const FLESH = 0.11;
/** Around the hand and head joints of a close shot (fingers, the head's crown). */
const CLOSE_FLESH = 0.07;

const _m = new THREE.Matrix4();

/** World positions of a rig's joints as of the last step. */
export function jointPositions(world: World, e: Entity): THREE.Vector3[] {
  applyJointTransform(world.worldTransform(e), _m);
  return world.modelPose(e).map((x) => new THREE.Vector3(x.t[0], x.t[1], x.t[2]).applyMatrix4(_m));
}

/** Up to `n` entries spread evenly over a list (a crowd is checked by a sample). */
function spread<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
}

export class Subject {
  readonly kind: SubjectKind;
  /** The characters the picture is about. */
  readonly rigs: Entity[];
  /** The character whose root the camera follows, or null (a group's centre is followed). */
  readonly lead: Entity | null;
  private readonly world: World;
  /** Held props (GripProfile entities) and their surfaces, for a close shot. */
  private readonly surfaces: Entity[];

  constructor(loaded: Loaded, private readonly sv: SceneViews) {
    const { world, holders, animated, rigs, entities } = loaded;
    this.world = world;
    this.surfaces = entities.filter((e) => world.has(e, GripSurface) || world.has(e, GripProfile));
    if (holders.length > 0 && animated.length < 3) {
      this.kind = 'hands';
      this.rigs = [...holders];
      this.lead = holders[0]!;
    } else if (animated.length >= 3) {
      this.kind = 'group';
      this.rigs = [...animated];
      this.lead = null;
    } else {
      this.kind = 'body';
      this.rigs = animated.length > 0 ? [animated[0]!] : [...rigs];
      this.lead = animated.length > 0 ? animated[0]! : null;
    }
  }

  /** What the picture must hold now: spheres around the joints (the flesh) and the held
   * prop's corners. */
  spheres(): THREE.Sphere[] {
    const out: THREE.Sphere[] = [];
    for (const e of this.rigs) out.push(...this.rigSpheres(e));
    if (this.kind === 'body' && this.lead === null) for (const e of this.sv.markers.keys()) out.push(new THREE.Sphere(new THREE.Vector3(...this.world.worldTransform(e).t), 0.04));
    if (out.length === 0) out.push(new THREE.Sphere(new THREE.Vector3(0, 1, 0), 1));
    return out;
  }

  /** The box around spheres(). */
  box(out = new THREE.Box3()): THREE.Box3 {
    out.makeEmpty();
    for (const s of this.spheres()) out.union(s.getBoundingBox(new THREE.Box3()));
    return out;
  }

  /** One character's part of the subject: its body (every joint with the flesh around it),
   * or in a close shot its head, neck and hands (fingers included) and the held prop. */
  rigSpheres(e: Entity): THREE.Sphere[] {
    const world = this.world;
    const pos = jointPositions(world, e);
    if (this.kind !== 'hands') return pos.map((p) => new THREE.Sphere(p, FLESH));
    const { names } = world.rig.skeleton(world.get(e, Rig).asset);
    const out: THREE.Sphere[] = [];
    names.forEach((n, j) => {
      if (/Head|Hand|Neck/.test(n)) out.push(new THREE.Sphere(pos[j]!, CLOSE_FLESH));
    });
    const held = world.has(e, GripHolder) ? world.get(e, GripHolder).held : 0;
    for (const s of this.surfaces) {
      if (!world.alive(s) || !world.has(s, GripSurface) || (s !== held && world.get(s, Transform).parent !== held)) continue;
      for (const c of surfaceCorners(world, s)) out.push(new THREE.Sphere(c, 0.005));
    }
    return out;
  }

  /** Points the camera must see (head, hips, feet of each character; a sample of a crowd),
   * for the occlusion checks. */
  points(): THREE.Vector3[] {
    const out: THREE.Vector3[] = [];
    const world = this.world;
    for (const e of spread(this.rigs, 12)) {
      const pos = jointPositions(world, e);
      const { names } = world.rig.skeleton(world.get(e, Rig).asset);
      const pick = (re: RegExp): void => {
        const j = names.findIndex((n) => re.test(n));
        if (j >= 0) out.push(pos[j]!.clone().setY(Math.max(pos[j]!.y, 0.08)));
      };
      pick(/Head$/);
      pick(/Hips$|^root$|pelvis/i);
      if (this.kind === 'hands') {
        pick(/LeftHand$/);
        pick(/RightHand$/);
      } else {
        pick(/LeftFoot$/);
        pick(/RightFoot$/);
      }
    }
    return out;
  }

  /** Per character: its spheres (head to feet; head, hands and prop in a close shot), for the
   * framing checks. */
  bodies(): { rig: Entity; spheres: THREE.Sphere[] }[] {
    return this.rigs.map((rig) => ({ rig, spheres: this.rigSpheres(rig) }));
  }
}

/** The eight corners (world) of a grip surface's shape's box: a box's own, a cylinder's or
 * capsule's radius across its axis and half its height along it, a sphere's radius. */
function surfaceCorners(world: World, e: Entity): THREE.Vector3[] {
  const s = world.get(e, GripSurface);
  const half = new THREE.Vector3();
  if (s.shape === 'Box') half.set(s.size[0] / 2, s.size[1] / 2, s.size[2] / 2);
  else if (s.shape === 'Sphere') half.setScalar(s.radius);
  else {
    half.setScalar(s.radius);
    half.setComponent({ X: 0, Y: 1, Z: 2 }[s.direction], s.height / 2);
  }
  const m = applyJointTransform(world.worldTransform(e), new THREE.Matrix4());
  const out: THREE.Vector3[] = [];
  for (let i = 0; i < 8; i++) out.push(new THREE.Vector3(i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y, i & 4 ? half.z : -half.z).add(new THREE.Vector3(...s.center)).applyMatrix4(m));
  return out;
}
