// glTF files with the structure of the Khronos sample models that rigs from elsewhere have
// (written here from their published structure, no data copied): joint nodes without names
// (three.js GLTFLoader names them ''), a Z-up node and a static armature above the joints, an
// armature node that an animation moves, unnamed animations and CUBICSPLINE channels. Each
// builder returns .glb bytes (assets/generate's GltfBuilder).
//
//   simpleSkin()        two unnamed joints (root, child 1 m up), a skinned strip, one unnamed
//                       LINEAR animation rotating both joints ("SimpleSkin")
//   riggedSimple()      Z_UP (-90 deg about X) > Armature > two unnamed joints (the root by
//                       `matrix`), a skinned column, one unnamed animation of rotations and a
//                       translation ("RiggedSimple")
//   movingArmature()    Root (Z-up) > Armature, whose translation an animation moves 1 m
//                       along X over 2 s > Hips > Spine > Head (named), a skinned column
//   unnamedClips()      simpleSkin's rig with three animations: unnamed CUBICSPLINE
//                       (translation and rotation), unnamed LINEAR, and 'wave' (STEP)
import * as THREE from 'three';
import { GltfBuilder, TARGET } from '../../assets/generate/gltf-writer.mjs';

const f32 = (a) => new Float32Array(a);
const DEG = Math.PI / 180;
export function quat(axis, deg) {
  const q = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(...axis).normalize(), deg * DEG);
  return [q.x, q.y, q.z, q.w].map(Math.fround);
}

/** Column-major inverse bind matrices: the inverse of each joint's world matrix at rest. */
function inverseBinds(nodes, joints) {
  const parent = new Map();
  nodes.forEach((n, i) => (n.children ?? []).forEach((c) => parent.set(c, i)));
  const local = (n) => {
    if (n.matrix) return new THREE.Matrix4().fromArray(n.matrix);
    return new THREE.Matrix4().compose(new THREE.Vector3(...(n.translation ?? [0, 0, 0])), new THREE.Quaternion(...(n.rotation ?? [0, 0, 0, 1])), new THREE.Vector3(...(n.scale ?? [1, 1, 1])));
  };
  const world = (i) => (parent.has(i) ? world(parent.get(i)).multiply(local(nodes[i])) : local(nodes[i]));
  const out = new Float32Array(16 * joints.length);
  joints.forEach((j, k) => out.set(world(j).invert().toArray(), 16 * k));
  return out;
}

/** A strip of quads along +Y of `height` m (in the mesh node's space), `rows` rings of four
 * vertices, each weighted between skin joints by height (`weight(y)` = [[joint, w], ...]). */
function strip(g, height, rows, weight, axis = 'y') {
  const P = [], J = [], W = [], I = [];
  for (let r = 0; r <= rows; r++) {
    const y = (height * r) / rows;
    for (const [a, b] of [[-0.1, -0.1], [0.1, -0.1], [0.1, 0.1], [-0.1, 0.1]]) {
      P.push(...(axis === 'y' ? [a, y, b] : [a, b, y]));
      const w = weight(y);
      J.push(...w.map(([j]) => j), ...new Array(4 - w.length).fill(0));
      W.push(...w.map(([, v]) => v), ...new Array(4 - w.length).fill(0));
    }
    if (r > 0) {
      for (let k = 0; k < 4; k++) {
        const a = 4 * (r - 1) + k, b = 4 * (r - 1) + ((k + 1) % 4);
        I.push(a, b, b + 4, a, b + 4, a + 4);
      }
    }
  }
  return {
    attributes: {
      POSITION: g.accessor(f32(P), 'VEC3', { target: TARGET.ARRAY_BUFFER, minmax: true }),
      JOINTS_0: g.accessor(new Uint16Array(J), 'VEC4', { target: TARGET.ARRAY_BUFFER }),
      WEIGHTS_0: g.accessor(f32(W), 'VEC4', { target: TARGET.ARRAY_BUFFER }),
    },
    indices: g.accessor(new Uint16Array(I), 'SCALAR', { target: TARGET.ELEMENT_ARRAY_BUFFER }),
  };
}

const two = (y, at) => (y <= at - 0.25 ? [[0, 1]] : y >= at + 0.25 ? [[1, 1]] : [[0, (at + 0.25 - y) / 0.5], [1, (y - at + 0.25) / 0.5]]);

function keys(g, times, values, type) {
  return { input: g.accessor(f32(times), 'SCALAR', { minmax: true }), output: g.accessor(f32(values.flat()), type) };
}

/** The SimpleSkin rig (nodes 0 mesh, 1 root joint, 2 child joint) and its mesh. */
function simpleRig(g) {
  const nodes = [{ skin: 0, mesh: 0 }, { children: [2] }, { translation: [0, 1, 0] }];
  const skin = { joints: [1, 2], inverseBindMatrices: g.accessor(inverseBinds(nodes, [1, 2]), 'MAT4') };
  const meshes = [{ primitives: [strip(g, 2, 8, (y) => two(y, 1))] }];
  return { nodes, skin, meshes };
}

export function simpleSkin() {
  const g = new GltfBuilder();
  const { nodes, skin, meshes } = simpleRig(g);
  const t = [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5];
  const child = keys(g, t, t.map((_, k) => quat([0, 0, 1], 45 * Math.sin((k * Math.PI) / 5.5))), 'VEC4');
  const root = keys(g, [0, 2.75, 5.5], [quat([0, 1, 0], 0), quat([0, 1, 0], 60), quat([0, 1, 0], 0)], 'VEC4');
  const animations = [
    {
      samplers: [child, root],
      channels: [
        { sampler: 0, target: { node: 2, path: 'rotation' } },
        { sampler: 1, target: { node: 1, path: 'rotation' } },
      ],
    },
  ];
  return g.glb({ asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0, 1] }], nodes, skins: [skin], meshes, animations });
}

export function riggedSimple() {
  const g = new GltfBuilder();
  const rootMatrix = new THREE.Matrix4().compose(new THREE.Vector3(0, 0, -1.5), new THREE.Quaternion(...quat([1, 0, 0], 90)), new THREE.Vector3(1, 1, 1)).toArray().map(Math.fround);
  const nodes = [
    { name: 'Z_UP', rotation: quat([1, 0, 0], -90), children: [1] },
    { name: 'Armature', children: [2, 4] },
    { matrix: rootMatrix, children: [3] },
    { translation: [0, 1.5, 0], rotation: quat([0, 0, 1], 5) },
    { name: 'Cylinder', mesh: 0, skin: 0 },
  ];
  const skin = { joints: [2, 3], skeleton: 2, inverseBindMatrices: g.accessor(inverseBinds(nodes, [2, 3]), 'MAT4') };
  const meshes = [{ primitives: [strip(g, 3, 12, (z) => two(z, 1.5), 'z')] }];
  const t = [0, 0.4, 0.8, 1.2, 1.6, 2.0];
  const bend = keys(g, t, t.map((_, k) => quat([1, 0, 0.3], 50 * Math.sin((k * Math.PI) / 2.5))), 'VEC4');
  const rootR = keys(g, [0, 1, 2], [quat([1, 0, 0], 90), quat([1, 0.2, 0], 100), quat([1, 0, 0], 90)], 'VEC4');
  const rootT = keys(g, [0, 1, 2], [[0, 0, -1.5], [0.2, 0, -1.4], [0, 0, -1.5]], 'VEC3');
  const animations = [
    {
      samplers: [bend, rootR, rootT],
      channels: [
        { sampler: 0, target: { node: 3, path: 'rotation' } },
        { sampler: 1, target: { node: 2, path: 'rotation' } },
        { sampler: 2, target: { node: 2, path: 'translation' } },
      ],
    },
  ];
  return g.glb({ asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }], nodes, skins: [skin], meshes, animations });
}

export function movingArmature() {
  const g = new GltfBuilder();
  const nodes = [
    { name: 'Root', rotation: quat([1, 0, 0], -90), children: [1] },
    { name: 'Armature', children: [2, 5] },
    { name: 'Hips', translation: [0, 0, 1], children: [3] },
    { name: 'Spine', translation: [0, 0, 0.3], children: [4] },
    { name: 'Head', translation: [0, 0, 0.3] },
    { name: 'Body', mesh: 0, skin: 0 },
  ];
  const joints = [2, 3, 4];
  const skin = { joints, inverseBindMatrices: g.accessor(inverseBinds(nodes, joints), 'MAT4') };
  const three = (z) => (z < 1.15 ? [[0, 1]] : z < 1.45 ? [[1, 1]] : [[2, 1]]);
  const meshes = [{ primitives: [strip(g, 1.7, 10, three, 'z')] }];
  const move = keys(g, [0, 1, 2], [[0, 0, 0], [0.5, 0, 0], [1, 0, 0]], 'VEC3');
  const sway = keys(g, [0, 1, 2], [quat([0, 1, 0], 0), quat([0, 1, 0], 20), quat([0, 1, 0], 0)], 'VEC4');
  const animations = [
    {
      name: 'Move',
      samplers: [move, sway],
      channels: [
        { sampler: 0, target: { node: 1, path: 'translation' } },
        { sampler: 1, target: { node: 3, path: 'rotation' } },
      ],
    },
  ];
  return g.glb({ asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }], nodes, skins: [skin], meshes, animations });
}

/** CUBICSPLINE keys: per key in-tangent, value, out-tangent. */
function cubic(g, times, values, tangents, type) {
  const out = values.flatMap((v, k) => [...tangents[k], ...v, ...tangents[k]]);
  return { input: g.accessor(f32(times), 'SCALAR', { minmax: true }), output: g.accessor(f32(out), type), interpolation: 'CUBICSPLINE' };
}

export function unnamedClips() {
  const g = new GltfBuilder();
  const { nodes, skin, meshes } = simpleRig(g);
  const t = [0, 0.7, 1.5, 2.4];
  const smoothT = cubic(g, t, [[0, 0, 0], [0.3, 0.1, 0], [0.1, 0.4, -0.2], [0, 0, 0]], [[0.5, 0, 0], [0, 0.6, -0.3], [-0.4, 0, 0.2], [0, 0, 0]], 'VEC3');
  const q = [quat([0, 0, 1], 0), quat([0, 0, 1], 70), quat([1, 0, 1], 40), quat([0, 0, 1], -30)];
  const dq = [[0, 0, 0.8, 0], [0.2, -0.3, 0.1, -0.4], [0, 0.5, -0.6, 0.1], [0, 0, 0, 0]];
  const smoothR = cubic(g, t, q, dq, 'VEC4');
  const lin = keys(g, [0, 1], [quat([1, 0, 0], 0), quat([1, 0, 0], 45)], 'VEC4');
  const step = keys(g, [0, 0.3, 0.9], [quat([0, 0, 1], 10), quat([0, 0, 1], -25), quat([0, 0, 1], 35)], 'VEC4');
  step.interpolation = 'STEP';
  const animations = [
    {
      samplers: [smoothT, smoothR],
      channels: [
        { sampler: 0, target: { node: 1, path: 'translation' } },
        { sampler: 1, target: { node: 2, path: 'rotation' } },
      ],
    },
    { samplers: [lin], channels: [{ sampler: 0, target: { node: 1, path: 'rotation' } }] },
    { name: 'wave', samplers: [step], channels: [{ sampler: 0, target: { node: 2, path: 'rotation' } }] },
  ];
  return g.glb({ asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0, 1] }], nodes, skins: [skin], meshes, animations });
}
