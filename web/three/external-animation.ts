/** External animation with three.js: the game keeps its AnimationMixer (or any code that
 * poses bones); Limber runs IK, grip and the other procedural phases on top.
 *
 * Each frame:
 *   mixer.update(dt);           // the game's animation poses the three.js bones
 *   anim.beforeStep();          // bones' local TRS → world.setAnimationPose
 *   world.step(dt);             // Limber: IK, grip, ... from that pose
 *   anim.afterStep();           // the rig's local pose → the bones
 *   renderer.render(scene, camera);
 *
 * Bones are matched to rig joints by name: a bone's name, or else its name with a prefix
 * stripped (`stripPrefix`, e.g. 'mixamorig:'), equals a joint name or the name three's
 * GLTFLoader gives that joint's node (`Bip01 R Hand` → `Bip01_R_Hand`), or `nameMap` names
 * the joint. Bones whose names match nothing fall back to skin order: the mesh's
 * `skeleton.bones[i]` is the glTF skin's `joints[i]`, which the rig keeps
 * (`world.rig.skeleton(asset).skinJoints`), so files whose joints have no names (three.js
 * names them '') need no options. A joint above the bones that three.js keeps as a plain
 * object (an animated armature node, which the rig makes its root joint) is driven by that
 * object, the parent of its child joint's bone. `matchedBy` and `matchCounts` say which way
 * each joint was matched. Bones that match no joint are never read or written; joints that no
 * bone drives hold the rig's rest pose and are listed in `missingJoints`. Local transforms are
 * copied as they are, so a matched bone must have the same parent joint and joint frame as in
 * the rig (world.rig.load of the same .glb gives exactly that). */
import * as THREE from 'three';
import type { Entity, JointTransform, RigHandle, World } from '../bridge/api.js';
import { entityLabel, LimberError, Rig, Transform } from '../bridge/api.js';

/** Rig joint (name or path) for a bone, by bone name. A function may return null or
 * undefined to leave the bone to the default rule (stripped name = joint name). */
export type BoneNameMap =
  | Readonly<Record<string, string>>
  | ReadonlyMap<string, string>
  | ((boneName: string) => string | null | undefined);

export interface ExternalAnimationOptions {
  /** Explicit bone → joint names; a record or map must name existing bones and joints.
   * Default: none. */
  nameMap?: BoneNameMap;
  /** Prefix (or prefixes, first match wins) removed from a bone name that matches no joint
   * as it is, e.g. 'mixamorig:' for a rig whose joints are named 'Hips'. Default: none. */
  stripPrefix?: string | readonly string[];
  /** beforeStep() copies the three.js world transform of the root joint's bone parent
   * (the object the skeleton hangs from; for a glTF armature node, which the rig already
   * includes as the skeleton's rootParent, the world transform of the object above it) into
   * the entity's Transform, so targets given in world space line up with the three.js scene. A Transform is inserted when the entity
   * has none; one with a parent entity is left alone. Default true. */
  syncRoot?: boolean;
  /** Throw when a rig joint has no bone. Default false (see missingJoints). */
  requireAllJoints?: boolean;
}

type Source = THREE.SkinnedMesh | THREE.Skeleton | THREE.Object3D;

const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _s = new THREE.Vector3();
const _m = new THREE.Matrix4();

function placementMatrix(x: JointTransform): THREE.Matrix4 | null {
  const identity = x.t.every((v) => v === 0) && x.r[0] === 0 && x.r[1] === 0 && x.r[2] === 0 && x.r[3] === 1 && x.s.every((v) => v === 1);
  if (identity) return null;
  return new THREE.Matrix4().compose(new THREE.Vector3(...x.t), new THREE.Quaternion(...x.r), new THREE.Vector3(...x.s));
}

function bonesOf(source: Source): THREE.Object3D[] | null {
  if (source instanceof THREE.Skeleton) return [...source.bones];
  if (source instanceof THREE.SkinnedMesh) return source.skeleton ? [...source.skeleton.bones] : null;
  if (source instanceof THREE.Object3D) {
    const out: THREE.Object3D[] = [];
    source.traverse((o) => {
      if ((o as THREE.Bone).isBone) out.push(o);
    });
    return out;
  }
  return null;
}

export class ExternalAnimation {
  /** The bone driving each rig joint (depth-first joint order), or null. */
  readonly bones: readonly (THREE.Object3D | null)[];
  /** afterStep's pose array, refilled in place every step (no allocation per frame). */
  private stepPose: JointTransform[] | undefined;
  /** Joint names (depth-first), as the rig has them. */
  readonly joints: readonly string[];
  /** Rig joints that no bone drives: they hold the rig's rest pose. */
  readonly missingJoints: readonly string[];
  /** Bones that match no rig joint: left alone. */
  readonly unmappedBones: readonly string[];
  /** How the bones were matched: 'name' (names, stripPrefix, nameMap), 'skin' (skin order:
   * the mesh's `skeleton.bones[i]` drives the rig's skin joint i, for bones whose names match
   * nothing, e.g. the unnamed joints of a glTF file) or 'mixed'. */
  readonly matchedBy: 'name' | 'skin' | 'mixed';
  /** Joints matched each way; `parent`: joints above the bones (an animated armature node,
   * a node between joints) driven by the three.js object that is their bone's parent. */
  readonly matchCounts: { readonly name: number; readonly skin: number; readonly parent: number };

  private readonly pose: JointTransform[];
  private readonly rootParent: THREE.Object3D | null;
  private readonly root: number;
  /** The skeleton's rootParent (an armature node baked into the root joint) and its
   * inverse, or null when it is the identity. */
  private readonly placement: THREE.Matrix4 | null;
  private readonly placementInverse: THREE.Matrix4 | null;
  private readonly syncRoot: boolean;
  private readonly asset: RigHandle;

  /**
   * @param world the Limber world
   * @param entity an entity with a Rig (e.g. from world.rig.load of the same .glb)
   * @param source a SkinnedMesh (its skeleton's bones), a Skeleton, or an Object3D whose
   *   descendant Bones are used
   * Throws a LimberError (LB_ERR_MISSING_COMPONENT, LB_ERR_INVALID_ARGUMENT,
   * LB_ERR_JOINT_NOT_FOUND, LB_ERR_UNKNOWN_NAME) naming the entity, bone and joint; the
   * world is unchanged then.
   */
  constructor(
    readonly world: World,
    readonly entity: Entity,
    source: Source,
    options: ExternalAnimationOptions = {},
  ) {
    const where = `ExternalAnimation on ${entityLabel(entity)}`;
    const fail = (code: string, msg: string, field?: string): never => {
      throw new LimberError(code, `${code}: ${where}: ${msg}`, { entity, component: 'Rig', ...(field ? { field } : {}) });
    };
    this.asset = world.get(entity, Rig).asset;
    const { names, parents, rootParent } = world.rig.skeleton(this.asset);
    this.joints = names;

    const { driven, missing, unmapped, counts } = matchBones(world, this.asset, source, options, fail);
    this.matchCounts = counts;
    this.matchedBy = counts.skin === 0 ? 'name' : counts.name === 0 ? 'skin' : 'mixed';

    this.bones = driven;
    this.missingJoints = missing;
    this.unmappedBones = unmapped;
    this.pose = readRest(world, this.asset, names.length);
    const root = parents.findIndex((p) => p < 0);
    this.root = root;
    this.rootParent = root >= 0 ? (driven[root]?.parent ?? null) : null;
    // A glTF armature node (axis change, centimetre scale) is part of the rig's root joint,
    // while three.js keeps it as the root bone's parent: the root's local transform is
    // converted between the two on the way in and out.
    this.placement = placementMatrix(rootParent);
    this.placementInverse = this.placement ? this.placement.clone().invert() : null;
    this.syncRoot = options.syncRoot ?? true;
    if (this.syncRoot && !world.has(entity, Transform)) world.insert(entity, Transform, {});
  }

  /** Call after the game's animation update and before world.step: hands the bones' local
   * position/quaternion/scale to the rig as this step's animation pose (and, with
   * syncRoot, the skeleton's world placement to the entity's Transform). */
  beforeStep(): void {
    this.bones.forEach((bone, j) => {
      if (!bone) return;
      const x = this.pose[j];
      if (j === this.root && this.placement) {
        _m.compose(bone.position, bone.quaternion, bone.scale).premultiply(this.placement).decompose(_p, _q, _s);
        x.t = [_p.x, _p.y, _p.z];
        x.r = [_q.x, _q.y, _q.z, _q.w];
        x.s = [_s.x, _s.y, _s.z];
        return;
      }
      x.t[0] = bone.position.x;
      x.t[1] = bone.position.y;
      x.t[2] = bone.position.z;
      x.r[0] = bone.quaternion.x;
      x.r[1] = bone.quaternion.y;
      x.r[2] = bone.quaternion.z;
      x.r[3] = bone.quaternion.w;
      x.s[0] = bone.scale.x;
      x.s[1] = bone.scale.y;
      x.s[2] = bone.scale.z;
    });
    this.world.setAnimationPose(this.entity, this.pose);
    if (this.syncRoot && this.rootParent && this.world.get(this.entity, Transform).parent === 0) {
      this.rootParent.updateWorldMatrix(true, false);
      _m.copy(this.rootParent.matrixWorld);
      if (this.placementInverse) _m.multiply(this.placementInverse);
      _m.decompose(_p, _q, _s);
      this.world.update(this.entity, Transform, (t) => {
        t.position = [_p.x, _p.y, _p.z];
        t.rotation = [_q.x, _q.y, _q.z, _q.w];
        t.scale = [_s.x, _s.y, _s.z];
      });
    }
  }

  /** Call after world.step: writes the rig's local pose (animation + IK, grip, ...) into
   * the bones' position, quaternion and scale. Matrices update when three.js renders (or
   * on updateMatrixWorld). */
  afterStep(): void {
    const local = (this.stepPose = this.world.localPose(this.entity, this.stepPose));
    this.bones.forEach((bone, j) => {
      if (!bone) return;
      const x = local[j];
      bone.position.set(x.t[0], x.t[1], x.t[2]);
      bone.quaternion.set(x.r[0], x.r[1], x.r[2], x.r[3]);
      bone.scale.set(x.s[0], x.s[1], x.s[2]);
      if (j === this.root && this.placementInverse) {
        _m.compose(bone.position, bone.quaternion, bone.scale).premultiply(this.placementInverse).decompose(bone.position, bone.quaternion, bone.scale);
      }
    });
  }

  /** The bone driving a joint (name or path), or null. */
  boneOf(joint: string): THREE.Object3D | null {
    const j = this.world.rig.findJoint(this.asset, joint);
    return j >= 0 ? (this.bones[j] ?? null) : null;
  }
}

type MatchHow = 'name' | 'skin' | 'parent';
type Fail = (code: string, msg: string, field?: string) => never;

/** Joint per rig joint index: the object driving it and how it was matched; bones no rule
 * matched yet. */
interface Matching {
  driven: (THREE.Object3D | null)[];
  how: (MatchHow | null)[];
  unmapped: THREE.Object3D[];
}

/** Pairs each rig joint with the object that drives it: by name (stripPrefix, nameMap), then
 * by skin order where names match nothing, then armature objects by place. Fails naming the
 * entity when nothing matches (or a joint is missing under requireAllJoints). */
function matchBones(world: World, asset: RigHandle, source: Source, options: ExternalAnimationOptions, fail: Fail): { driven: (THREE.Object3D | null)[]; missing: string[]; unmapped: string[]; counts: Record<MatchHow, number> } {
  const { names, parents, skinJoints } = world.rig.skeleton(asset);
  const bones = source ? bonesOf(source) : null;
  if (!bones) fail('LB_ERR_INVALID_ARGUMENT', 'source must be a THREE.SkinnedMesh, THREE.Skeleton or THREE.Object3D', 'source');
  if (bones!.length === 0) fail('LB_ERR_INVALID_ARGUMENT', 'source has no bones', 'source');

  const lookup = nameLookup(options, bones!, fail);
  const prefixes = options.stripPrefix === undefined ? [] : typeof options.stripPrefix === 'string' ? [options.stripPrefix] : options.stripPrefix;
  if (!Array.isArray(prefixes) || prefixes.some((p) => typeof p !== 'string')) {
    fail('LB_ERR_INVALID_ARGUMENT', `field 'stripPrefix' must be a string or an array of strings, got ${String(options.stripPrefix)}`, 'stripPrefix');
  }
  const m: Matching = { driven: names.map(() => null), how: names.map(() => null), unmapped: [] };
  matchByName(world, asset, names, bones!, lookup, prefixes, m, fail);
  const skin = skinBones(source, skinJoints.length);
  const skinNote = matchBySkin(names, skinJoints, skin, m);
  matchByParent(parents, m);
  const driven = m.driven;
  const missing = names.filter((_, j) => !driven[j]);
  if (missing.length === names.length) {
    const sample = bones!.slice(0, 3).map((b) => `'${b.name}'`).join(', ');
    fail('LB_ERR_JOINT_NOT_FOUND', `no bone matches a rig joint (bones ${sample}..., joints '${names.slice(0, 3).join("', '")}'...; ${skinNote}); set stripPrefix or nameMap`, 'nameMap');
  }
  if (options.requireAllJoints && missing.length) {
    fail('LB_ERR_JOINT_NOT_FOUND', `no bone for joint${missing.length > 1 ? 's' : ''} '${missing.join("', '")}'`, 'nameMap');
  }
  const counts = { name: 0, skin: 0, parent: 0 };
  for (const h of m.how) if (h) counts[h]++;
  const unmapped = m.unmapped.filter((b) => !driven.includes(b)).map((b) => b.name);
  return { driven, missing, unmapped, counts };
}

/** The nameMap option as a function (undefined: the default rule); a record or map must name
 * existing bones. */
function nameLookup(options: ExternalAnimationOptions, bones: readonly THREE.Object3D[], fail: Fail): (bone: string) => string | null | undefined {
  const map = options.nameMap;
  let lookup: (bone: string) => string | null | undefined = () => undefined;
  if (map instanceof Map) {
    lookup = (b) => map.get(b);
  } else if (typeof map === 'function') {
    lookup = map;
  } else if (map !== undefined && map !== null && typeof map === 'object' && !Array.isArray(map)) {
    const rec = map as Readonly<Record<string, string>>;
    lookup = (b) => (Object.prototype.hasOwnProperty.call(rec, b) ? rec[b] : undefined);
  } else if (map !== undefined) {
    fail('LB_ERR_INVALID_ARGUMENT', `field 'nameMap' must be an object, a Map or a function, got ${String(map)}`, 'nameMap');
  }
  if (map && typeof map === 'object') {
    const boneNames = new Set(bones.map((b) => b.name));
    for (const key of map instanceof Map ? map.keys() : Object.keys(map)) {
      if (!boneNames.has(key)) fail('LB_ERR_UNKNOWN_NAME', `nameMap names bone '${key}', which the skeleton does not have`, 'nameMap');
    }
  }
  return lookup;
}

/** Bones to joints by name: nameMap, the name as it is or as three's GLTFLoader sanitises
 * joint names, then with a prefix stripped. */
function matchByName(world: World, asset: RigHandle, names: readonly string[], bones: readonly THREE.Object3D[], lookup: (bone: string) => string | null | undefined, prefixes: readonly string[], m: Matching, fail: Fail): void {
  const byName = new Map(names.map((n, j) => [n, j]));
  // three's GLTFLoader renames nodes (PropertyBinding.sanitizeNodeName: spaces to '_',
  // '[ ] . : /' dropped), so 'Bip01 R Hand' arrives as bone 'Bip01_R_Hand': joints also
  // match under three's name for them, unless two joints would share it.
  const bySanitized = new Map<string, number>();
  const clashes = new Set<string>();
  names.forEach((n, j) => {
    const s = THREE.PropertyBinding.sanitizeNodeName(n);
    if (s === n) return;
    if (bySanitized.has(s) || byName.has(s)) clashes.add(s);
    bySanitized.set(s, j);
  });
  for (const s of clashes) bySanitized.delete(s);
  const jointOf = (boneName: string): number => byName.get(boneName) ?? bySanitized.get(boneName) ?? -1;
  for (const bone of bones) {
    let joint = -1;
    const mapped = lookup(bone.name);
    if (mapped !== undefined && mapped !== null) {
      if (typeof mapped !== 'string') fail('LB_ERR_INVALID_ARGUMENT', `nameMap gives ${String(mapped)} for bone '${bone.name}', not a joint name`, 'nameMap');
      joint = world.rig.findJoint(asset, mapped);
      if (joint < 0) fail('LB_ERR_JOINT_NOT_FOUND', `nameMap maps bone '${bone.name}' to '${mapped}', which is not a joint of the rig`, 'nameMap');
    } else {
      joint = jointOf(bone.name);
      const p = joint < 0 ? prefixes.find((x) => x.length > 0 && bone.name.startsWith(x)) : undefined;
      if (p) joint = jointOf(bone.name.slice(p.length));
    }
    if (joint < 0) {
      m.unmapped.push(bone);
      continue;
    }
    const other = m.driven[joint];
    if (other && other !== bone) {
      fail('LB_ERR_INVALID_ARGUMENT', `bones '${other.name}' and '${bone.name}' both map to joint '${names[joint]}'`, 'nameMap');
    }
    m.driven[joint] = bone;
    m.how[joint] = 'name';
  }
}

/** The bones in skin order when the source has them: a SkinnedMesh's or Skeleton's bones, or
 * the first SkinnedMesh below an Object3D with as many bones as the rig's skin has joints. */
function skinBones(source: Source, count: number): readonly THREE.Object3D[] | null {
  if (count === 0) return null;
  if (source instanceof THREE.Skeleton) return source.bones;
  if (source instanceof THREE.SkinnedMesh) return source.skeleton?.bones ?? null;
  let found: THREE.Object3D[] | null = null;
  source.traverse((o) => {
    const sm = o as THREE.SkinnedMesh;
    if (!found && sm.isSkinnedMesh && sm.skeleton?.bones.length === count) found = sm.skeleton.bones;
  });
  return found;
}

/** Skin order for what names left unmatched: bone i drives skin joint i (a glTF skin's
 * joints[i] is three's skeleton.bones[i], names or not). Used only when the bone list is the
 * rig's skin: as long, and every bone matched by name sits at its joint's skin index.
 * Returns why it was not used, for the error message when nothing matched. */
function matchBySkin(names: readonly string[], skinJoints: readonly number[], bones: readonly THREE.Object3D[] | null, m: Matching): string {
  if (skinJoints.length === 0) return 'the rig has no skin order';
  if (!bones || bones.length !== skinJoints.length) return `the skin order does not apply: ${bones ? bones.length : 'no'} bones in skin order, the rig's skin has ${skinJoints.length} joints`;
  for (let i = 0; i < bones.length; i++) {
    const j = m.driven.indexOf(bones[i]!);
    if (j >= 0 && j !== skinJoints[i]) return `the skin order does not apply: bone ${i} '${bones[i]!.name}' matches joint '${names[j]}' by name, skin joint ${i} is '${names[skinJoints[i]!]}'`;
  }
  bones.forEach((bone, i) => {
    const j = skinJoints[i]!;
    if (m.driven[j] || m.driven.includes(bone)) return;
    m.driven[j] = bone;
    m.how[j] = 'skin';
  });
  return 'skin order applied';
}

/** A joint without a bone whose child joint has one is that bone's parent object, when the
 * parent is no bone itself: three.js keeps nodes that are not skin joints (an animated
 * armature node the rig made its root, a node between joints) as plain objects. */
function matchByParent(parents: readonly number[], m: Matching): void {
  for (let c = parents.length - 1; c >= 0; c--) {
    const j = parents[c]!;
    const child = m.driven[c];
    if (j < 0 || m.driven[j] || !child?.parent) continue;
    const p = child.parent;
    if ((p as THREE.Bone).isBone || m.driven.includes(p)) continue;
    m.driven[j] = p;
    m.how[j] = 'parent';
  }
}

/** The skeleton asset's rest pose (local, depth-first) as fresh objects. */
function readRest(world: World, asset: RigHandle, count: number): JointTransform[] {
  return world.native(({ ex, heap, w, xf }) => {
    const p = ex.lbw_skeleton_rest(w, asset);
    const f = heap.f32;
    const out: JointTransform[] = [];
    for (let j = 0; j < count; j++) {
      const b = p + j * xf.size;
      const t = (b + xf.t) >> 2, r = (b + xf.r) >> 2, s = (b + xf.s) >> 2;
      out.push({ t: [f[t], f[t + 1], f[t + 2]], r: [f[r], f[r + 1], f[r + 2], f[r + 3]], s: [f[s], f[s + 1], f[s + 2]] });
    }
    return out;
  });
}
