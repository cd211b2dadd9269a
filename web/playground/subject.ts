/** What a scene is about, for the camera (camera.ts) and the framing checks (api.ts
 * `limber.framing()`): its subject characters and the box the picture must hold.
 *
 *   hands  a scene with a GripHolder: each holder's head, both hands and the held prop (the
 *          grip is the point; the legs can leave the frame);
 *   group  three or more animated characters (nav agents, a crowd): every body;
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
const _v = new THREE.Vector3();

/** World positions of a rig's joints as of the last step. */
export function jointPositions(world: World, e: Entity): THREE.Vector3[] {
  applyJointTransform(world.worldTransform(e), _m);
  return world.modelPose(e).map((x) => new THREE.Vector3(x.t[0], x.t[1], x.t[2]).applyMatrix4(_m));
}

/** A character's body, head to feet: its joints grown by the flesh around them. */
export function bodyBox(world: World, e: Entity, out = new THREE.Box3()): THREE.Box3 {
  out.makeEmpty();
  for (const p of jointPositions(world, e)) out.expandByPoint(p);
  return out.expandByScalar(FLESH);
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
    if (holders.length > 0) {
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

  /** The box the picture must hold now. */
  box(out = new THREE.Box3()): THREE.Box3 {
    out.makeEmpty();
    const world = this.world;
    if (this.kind === 'hands') {
      for (const e of this.rigs) this.closeBox(e, out);
      return out;
    }
    for (const e of this.rigs) out.union(bodyBox(world, e, new THREE.Box3()));
    if (this.kind === 'body' && this.lead === null) for (const e of this.sv.markers.keys()) out.expandByPoint(_v.set(...world.worldTransform(e).t));
    if (out.isEmpty()) out.setFromCenterAndSize(new THREE.Vector3(0, 1, 0), new THREE.Vector3(2, 2, 2));
    return out;
  }

  /** A holder's head, hands and held prop. */
  private closeBox(e: Entity, out: THREE.Box3): THREE.Box3 {
    const world = this.world;
    const { names } = world.rig.skeleton(world.get(e, Rig).asset);
    const pos = jointPositions(world, e);
    const part = new THREE.Box3();
    names.forEach((n, j) => {
      if (/Head|Hand|Neck/.test(n)) part.expandByPoint(pos[j]!);
    });
    out.union(part.expandByScalar(CLOSE_FLESH));
    const held = world.has(e, GripHolder) ? world.get(e, GripHolder).held : 0;
    for (const s of this.surfaces) {
      if (!world.alive(s) || (s !== held && world.get(s, Transform).parent !== held)) continue;
      const r = world.has(s, GripSurface) ? surfaceReach(world, s) : 0;
      out.union(new THREE.Box3().setFromCenterAndSize(_v.set(...world.worldTransform(s).t), new THREE.Vector3(r, r, r).multiplyScalar(2)));
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

  /** Per character: its body box (head to feet), for the framing checks. */
  bodies(): { rig: Entity; box: THREE.Box3 }[] {
    return this.rigs.map((rig) => ({ rig, box: this.kind === 'hands' ? this.closeBox(rig, new THREE.Box3()) : bodyBox(this.world, rig) }));
  }
}

/** Half the largest extent of a grip surface (its shape's size), metres. */
function surfaceReach(world: World, e: Entity): number {
  const s = world.get(e, GripSurface);
  const half = Math.max(s.size[0], s.size[1], s.size[2]) / 2;
  return Math.max(half, s.radius, s.height / 2) + Math.hypot(...s.center);
}
