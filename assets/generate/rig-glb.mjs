// One rig as a .glb: joint nodes (node index = the core's depth-first joint
// index), a skin with inverse bind matrices from the rest pose, the skinned
// mannequin mesh, a material and the baked clips.
import { bakeClip } from './clips.mjs';
import { GltfBuilder, TARGET } from './gltf-writer.mjs';
import { qconj, qmul, qrot } from './math.mjs';
import { buildMesh } from './mesh.mjs';

/** Column-major 4x4 inverse of a rigid transform (rotation q, translation p). */
function inverseRigid(q, p) {
  const c = qconj(q);
  const t = qrot(c, p);
  const [x, y, z, w] = c;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
    -t[0], -t[1], -t[2], 1,
  ];
}

/** Intervals [t0, t1] (seconds) between consecutive keys where a flag holds. */
function intervals(keys, flag) {
  const out = [];
  for (let k = 0; k + 1 < keys.length; k++) {
    if (!(flag(keys[k]) && flag(keys[k + 1]))) continue;
    const t0 = Math.fround(keys[k].t), t1 = Math.fround(keys[k + 1].t);
    if (out.length && out[out.length - 1][1] === t0) out[out.length - 1][1] = t1;
    else out.push([t0, t1]);
  }
  return out;
}

/**
 * `rig` from skeleton.mjs, `canon` the canonical skeleton, `clips` the clip
 * definitions (motion.mjs) with their sampled keys (clips.mjs).
 */
export function rigGlb(rig, canon, clips, clipKeys, meta) {
  const g = new GltfBuilder();
  const count = rig.names.length;
  const canonIndex = new Map(canon.names.map((n, j) => [n, j]));
  const children = rig.names.map(() => []);
  rig.parents.forEach((p, j) => p >= 0 && children[p].push(j));
  // An armature node (rotation A, uniform scale k) above the root: joint values are given
  // in its space, so model-space values map by A⁻¹/k (translations) and A⁻¹ (root rotation).
  const arm = rig.armature;
  const inArm = (t, root) => {
    if (!arm) return t;
    return (root ? qrot(qconj(arm.rotation), t) : t).map((v) => v / arm.scale);
  };
  const rootRot = (r) => (arm ? qmul(qconj(arm.rotation), r) : r);
  const nodes = rig.names.map((name, j) => {
    const root = rig.parents[j] < 0;
    const t = inArm(rig.rest[j].t, root);
    const r = root ? rootRot(rig.rest[j].r) : rig.rest[j].r;
    const node = { name, translation: Array.from(t, Math.fround), rotation: Array.from(r, Math.fround) };
    if (children[j].length) node.children = children[j];
    return node;
  });
  const meshNode = nodes.length;
  nodes.push({ name: 'Mannequin', mesh: 0, skin: 0 });
  const sceneRoots = [0, meshNode];
  if (arm) {
    sceneRoots[0] = nodes.length;
    nodes.push({ name: 'Armature', rotation: Array.from(arm.rotation, Math.fround), scale: [arm.scale, arm.scale, arm.scale].map(Math.fround), children: [0] });
  }

  // Inverse bind = inverse of the joint's scene-space matrix (which carries the armature's scale).
  const ibm = new Float32Array(16 * count);
  const bind = rig.bind ?? rig;
  bind.pos.forEach((p, j) => {
    const m = inverseRigid(bind.rot[j], p);
    if (arm) for (let c = 0; c < 4; c++) for (let r = 0; r < 3; r++) m[4 * c + r] /= arm.scale;
    ibm.set(m, 16 * j);
  });
  const skin = { name: 'Armature', joints: rig.names.map((_, j) => j), skeleton: 0, inverseBindMatrices: g.accessor(ibm, 'MAT4') };

  const mesh = buildMesh(canon, (role) => rig.jointOf.get(role), count);
  const primitive = {
    attributes: {
      POSITION: g.accessor(mesh.positions, 'VEC3', { target: TARGET.ARRAY_BUFFER, minmax: true }),
      NORMAL: g.accessor(mesh.normals, 'VEC3', { target: TARGET.ARRAY_BUFFER }),
      JOINTS_0: g.accessor(mesh.joints, 'VEC4', { target: TARGET.ARRAY_BUFFER }),
      WEIGHTS_0: g.accessor(mesh.weights, 'VEC4', { target: TARGET.ARRAY_BUFFER }),
    },
    indices: g.accessor(mesh.indices, 'SCALAR', { target: TARGET.ELEMENT_ARRAY_BUFFER }),
    material: 0,
    mode: 4,
  };

  const toe = ['LeftToeBase', 'RightToeBase'];
  const animations = clips.map((clip, c) => {
    const keys = clipKeys[c];
    const baked = bakeClip(rig, canonIndex, keys);
    const input = g.accessor(baked.times, 'SCALAR', { minmax: true });
    const samplers = [];
    const channels = [];
    if (arm) {
      const root = baked.rotations[0];
      for (let k = 0; k < root.length; k += 4) root.set(rootRot(Array.from(root.subarray(k, k + 4))).map(Math.fround), k);
      for (let k = 0; k < baked.translation.length; k += 3) baked.translation.set(inArm(Array.from(baked.translation.subarray(k, k + 3)), true).map(Math.fround), k);
    }
    baked.rotations.forEach((data, j) => {
      samplers.push({ input, output: g.accessor(data, 'VEC4'), interpolation: 'LINEAR' });
      channels.push({ sampler: samplers.length - 1, target: { node: j, path: 'rotation' } });
    });
    samplers.push({ input, output: g.accessor(baked.translation, 'VEC3'), interpolation: 'LINEAR' });
    channels.push({ sampler: samplers.length - 1, target: { node: 0, path: 'translation' } });
    const last = keys[keys.length - 1].root;
    const extras = {
      loop: clip.loop,
      rootDisplacement: keys[0].root.map((v, i) => Math.fround(last[i] - v)),
      toePlanted: Object.fromEntries(toe.map((r, i) => [rig.names[rig.jointOf.get(r)], intervals(keys, (k) => k.info.planted[i])])),
    };
    if (clip.speed !== undefined) extras.speed = clip.speed;
    if (clip.note) extras.note = clip.note;
    return { name: clip.name, channels, samplers, extras };
  });

  return g.glb({
    asset: { version: '2.0', generator: 'limber assets/generate', extras: meta },
    scene: 0,
    scenes: [{ name: `mannequin-${rig.naming}`, nodes: sceneRoots }],
    nodes,
    skins: [skin],
    meshes: [{ name: 'Mannequin', primitives: [primitive] }],
    materials: [{ name: 'mannequin', pbrMetallicRoughness: { baseColorFactor: [0.62, 0.64, 0.68, 1], metallicFactor: 0, roughnessFactor: 0.7 } }],
    animations,
  });
}
