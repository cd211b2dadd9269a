/** `world.rig`: skeleton assets — glTF import, the procedural humanoid, joint names and
 * lookups. Poses of entities are read and written on World itself (modelPose, localPose,
 * modelMatrices, setAnimationPose): they are the step's input and output. */
import { badArgument, describe, handleArg, nameArg } from './args.js';
import { brand, type HandleArg, type RigHandle } from './components.js';
import { LimberError } from './errors.js';
import { loadRig, type LoadedRig, type LoadRigOptions } from './gltf.js';
import { type JointTransform, readTransforms, type World } from './world.js';

/** Joint naming conventions of the procedural humanoid (order = lb_humanoid_naming). */
export const HUMANOID_NAMINGS = ['mixamo', 'unreal', 'blender', 'digits'] as const;
export type HumanoidNaming = (typeof HUMANOID_NAMINGS)[number];

/** What `world.rig.skeleton(asset)` returns. */
export interface SkeletonInfo {
  /** Joint names, depth-first. */
  names: string[];
  /** Parent joint index per joint, -1 for a root. */
  parents: number[];
  /** The placement already included in the root's rest pose (identity for most rigs). */
  rootParent: JointTransform;
  /** Joint index of each skin joint in skin order (glTF `skin.joints[i]` = three.js
   * `skeleton.bones[i]`); empty without a skin. */
  skinJoints: number[];
}

export class RigApi {
  /** @internal use `world.rig` */
  constructor(private readonly world: World) {}

  /** Imports a .glb or .gltf file (bytes): its skeleton (the skin's joints, or every node) as
   * a skeleton asset and every animation as a clip asset. Throws a LimberError naming the
   * problem ("accessor 7: offset + size exceeds bufferView 2"); on error the world is
   * unchanged. */
  readonly load = (bytes: Uint8Array, options: LoadRigOptions = {}): LoadedRig => loadRig(this.world, bytes, options);

  /** Adds the procedural humanoid skeleton (65 joints; 73 with Unreal's metacarpals) named in
   * one convention (default 'mixamo'; 'blender' has bone-local +Y axes), `height` metres
   * (default 1.8, range (0.3, 3]); returns its asset handle. */
  readonly addHumanoid = (options: { height?: number; naming?: HumanoidNaming } = {}): RigHandle => {
    const fn = 'rig.addHumanoid';
    if (options === null || typeof options !== 'object') throw badArgument(fn, 'options', `must be an object, got ${describe(options)}`);
    const height = options.height ?? 1.8;
    if (typeof height !== 'number' || !(height > 0.3 && height <= 3)) {
      throw new LimberError('LB_ERR_OUT_OF_RANGE', `LB_ERR_OUT_OF_RANGE: ${fn}: field 'height' = ${describe(height)} is outside (0.3, 3] m`, { field: 'height' });
    }
    const naming = HUMANOID_NAMINGS.indexOf(options.naming ?? 'mixamo');
    if (naming < 0) {
      throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: ${fn}: field 'naming' = ${describe(options.naming)} is not one of ${HUMANOID_NAMINGS.join(', ')}`, { field: 'naming' });
    }
    return this.world.native(({ ex, heap, w, check }) =>
      heap.scratch(4, (p) => {
        check(ex.lbw_add_humanoid(w, height, naming, p), { fn });
        return brand<RigHandle>(heap.u32[p >> 2]!);
      }),
    );
  };

  /** Joint names and parents of a skeleton asset (depth-first order), `rootParent`: the
   * placement already included in the root's rest pose (a glTF armature node's axis change
   * and unit scale; identity otherwise; an adapter posing the root bone in the file's own
   * space composes it: root joint local = rootParent * bone local), and `skinJoints`: the
   * joint index of each skin joint in skin order (a glTF skin's `joints[i]`, which is
   * three.js `SkinnedMesh.skeleton.bones[i]`), empty for a skeleton without a skin. */
  readonly skeleton = (asset: HandleArg<RigHandle>): SkeletonInfo => {
    const fn = 'rig.skeleton';
    handleArg(asset, fn, 'asset', 'an asset handle');
    return this.world.native(({ ex, heap, w, xf }) => {
      const rootParent = heap.scratch(xf.size, (p) => {
        if (ex.lbw_skeleton_root_parent(w, asset, p) !== 0) {
          throw badArgument(fn, 'asset', `= ${describe(asset)} is not a skeleton asset of this world`, 'LB_ERR_INVALID_ARGUMENT');
        }
        return readTransforms(heap, xf, p, 1)[0]!;
      });
      const n = ex.lbw_joint_count(w, asset);
      const names: string[] = [];
      const parents: number[] = [];
      for (let j = 0; j < n; j++) {
        names.push(heap.cstring(ex.lbw_joint_name(w, asset, j)));
        parents.push(ex.lbw_joint_parent(w, asset, j));
      }
      const skinJoints: number[] = [];
      for (let k = 0, m = ex.lbw_skeleton_skin_joint_count(w, asset); k < m; k++) skinJoints.push(ex.lbw_skeleton_skin_joint(w, asset, k));
      return { names, parents, rootParent, skinJoints };
    });
  };

  /** Joint index for a path ("Hips/Spine/...") or bare name, or -1. */
  readonly findJoint = (asset: HandleArg<RigHandle>, path: string): number => {
    const fn = 'rig.findJoint';
    handleArg(asset, fn, 'asset', 'an asset handle');
    return this.world.native(({ ex, heap, w }) => heap.withString(nameArg(path, fn, 'path'), fn, (s) => ex.lbw_find_joint(w, asset, s)));
  };
}
