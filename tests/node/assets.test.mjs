// The generated assets (assets/generate): reproducible bytes, glb files that
// three.js GLTFLoader reads, skeletons identical to the core's humanoid, the same
// motion in every convention, clip timing and root motion, props that load, and
// level scenes whose data (json) is their meshes (glb) and holds up: touch hints
// against the mannequin's reach, vaultability by the rule, nav reachability; each level's
// navmesh (baked with Recast) is pinned with them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { REACH_TARGET, VAULT_BOX, VAULT_PLANT } from '../../assets/generate/motion.mjs';
import { createWorld, Rig } from '../../dist/web/bridge/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NAMINGS = ['mixamo', 'unreal', 'blender', 'digits'];
const PROPS = ['rifle', 'pistol', 'hammer', 'cup', 'ball'];
const LEVELS = ['corridor', 'vault-course', 'nav-arena'];
const CONVENTIONS = ['vrm', 'biped', 'daz4'];
const FILES = [...NAMINGS.map((n) => `rigs/mannequin-${n}.glb`), ...CONVENTIONS.map((n) => `rigs/convention-${n}.glb`), ...PROPS.map((p) => `props/${p}.json`), ...LEVELS.flatMap((l) => [`levels/${l}.glb`, `levels/${l}.json`, `levels/${l}.navmesh.json`])];
const CLIPS = { idle: 2, walk: 1, run: 0.7, vault: 1.2, reach: 1.2 };

// Pinned output: regenerate with `npm run assets`, check the change, then update these.
const SHA256 = {
  'rigs/mannequin-mixamo.glb': '68abd7d5da77d94e1ef760403dd42e61052b7887f9e172e83d7b7c749494f59a',
  'rigs/mannequin-unreal.glb': 'f7cac5c1f5f30a008d7cb34afac8be47ea4e68e0542ad3891d5d844a4a41e1b5',
  'rigs/mannequin-blender.glb': 'ee8aa06b565d33e5bb486f5d12099e223d1327287056030bc2d2d1928fa6db80',
  'rigs/mannequin-digits.glb': 'e3baa74b886f8a5d8c27f26ffc7949c04aceab01f0e1fc4ff13a0d2196c68d7f',
  'rigs/convention-vrm.glb': '7d2bb0ab7f09275616132045522675b85b3de8ffd1b52d6ec4e97b77371bbd59',
  'rigs/convention-biped.glb': '5459809d724266df3b8810d4fadc8e6a5bc4cf71d8836c34d0654dc92a893104',
  'rigs/convention-daz4.glb': 'bd67706d32ffc8b9189679626424ecbbed7da14e91d1453008c18c87d5e96739',
  'props/rifle.json': 'f44038547c22634631bcf2b92b7025cb2e1df4ac3e73f80ba2c41d35a77d8e1d',
  'props/pistol.json': 'e92383ce80b06e163e67637caaed195598fba412e35471128dbd65b83faf8b09',
  'props/hammer.json': '078aa7dd744c6ddfc85ba611252763792f1c5c76f1b64330b149d45d00bb4eb0',
  'props/cup.json': '11a85a9c49cd34726929a9c39d69cd244d53e9926a5cb49d9154abdec92e2f73',
  'props/ball.json': '131f108179bd3f1eac25b889ee8a053f20d1dfbfe681c9fcec35e4cedce9bb6b',
  'levels/corridor.glb': 'cb7d0f5284d4d64faa8ea7c15be5aa1d6e010509a20b10d083e614467143e83f',
  'levels/corridor.json': '140584d6f60e3ab82eb8d5365b952790391221d5883325b7de86f5438d44c416',
  'levels/corridor.navmesh.json': '7ac36cb1087499d963293f7ea5db04cdd3ffc1b9e9484a9543316c6eae700a75',
  'levels/vault-course.glb': '6bb43262212b4f82fd7919806eb7234d3149964db9d5f4dd31b00da4f75de4f2',
  'levels/vault-course.json': 'fc893bb30bfe8bf718db068c76c8ee3b8605207936a9e023a3c1680118f0e329',
  'levels/vault-course.navmesh.json': '08d3d4c251178dab7352e00c289c712342f67df48b33b595b7b1b9936310a392',
  'levels/nav-arena.glb': 'be9f5148686838d441005eb48ccfb514d39082f97c20f2d3f016703a241dbfd7',
  'levels/nav-arena.json': 'b4da411f1001990c451f86a6726fc60becc02b850126c294047af807fafe4ef9',
  'levels/nav-arena.navmesh.json': '96e70c7b533851966c9f054244159d15d6a752913585eb7db7b7adb9366bf09e',
};

const sha256 = (b) => createHash('sha256').update(b).digest('hex');
const committed = (rel) => readFileSync(join(root, 'assets', rel));

async function loadGlb(naming, kind = 'mannequin') {
  const buf = committed(`rigs/${kind}-${naming}.glb`);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const gltf = await new Promise((ok, err) => new GLTFLoader().parse(ab, '', ok, err));
  let mesh = null;
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh) mesh = o;
  });
  return { gltf, mesh, json: gltf.parser.json };
}

const rigs = Object.fromEntries(await Promise.all(NAMINGS.map(async (n) => [n, await loadGlb(n)])));

/** Samples a clip on a loaded rig: world positions of every bone and skinned vertex. */
function sampler(rig) {
  const mixer = new THREE.AnimationMixer(rig.gltf.scene);
  const bones = rig.mesh.skeleton.bones;
  return (clipName, t) => {
    mixer.stopAllAction();
    const clip = rig.gltf.animations.find((c) => c.name === clipName);
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.reset().play();
    mixer.setTime(t);
    rig.gltf.scene.updateMatrixWorld(true);
    const joints = bones.map((b) => b.getWorldPosition(new THREE.Vector3()));
    const pos = rig.mesh.geometry.attributes.position;
    const verts = [];
    for (let i = 0; i < pos.count; i++) verts.push(rig.mesh.applyBoneTransform(i, new THREE.Vector3().fromBufferAttribute(pos, i)));
    return { joints, verts };
  };
}

test('assets: the generator reproduces the committed files byte for byte, and their sha256 is pinned', () => {
  const out = mkdtempSync(join(tmpdir(), 'limber-assets-'));
  try {
    const r = spawnSync(process.execPath, [join(root, 'assets/generate/index.mjs'), '--out', out, '--no-build'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const hashes = {};
    for (const rel of FILES) {
      const fresh = readFileSync(join(out, rel));
      assert.ok(fresh.equals(committed(rel)), `${rel}: regenerated bytes differ from the committed file (run npm run assets)`);
      hashes[rel] = sha256(fresh);
    }
    console.log(`sha256 ${JSON.stringify(hashes, null, 2)}`);
    for (const rel of FILES) assert.equal(hashes[rel], SHA256[rel], `${rel}: sha256 changed`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('assets: each rig is the core humanoid in its convention (names, parents, rest TRS exactly)', async () => {
  const world = await createWorld();
  for (const naming of NAMINGS) {
    const asset = world.rig.addHumanoid({ naming });
    const e = world.spawn();
    world.insert(e, Rig, { asset });
    world.step(0);
    const { names, parents } = world.rig.skeleton(asset);
    const rest = world.localPose(e);
    const { json, mesh } = rigs[naming];
    const skinJoints = json.skins[0].joints;
    assert.equal(skinJoints.length, names.length, `${naming}: joint count`);
    skinJoints.forEach((node, j) => {
      const n = json.nodes[node];
      assert.equal(n.name, names[j], `${naming}: joint ${j} name`);
      const parent = json.nodes.findIndex((m) => (m.children ?? []).includes(node));
      assert.equal(parent, parents[j] < 0 ? -1 : skinJoints[parents[j]], `${naming}: parent of ${names[j]}`);
      assert.deepEqual(n.translation, rest[j].t, `${naming}: ${names[j]} rest translation`);
      assert.deepEqual(n.rotation, rest[j].r, `${naming}: ${names[j]} rest rotation`);
    });
    // three.js strips '.' and ':' from node names (PropertyBinding.sanitizeNodeName).
    assert.deepEqual(mesh.skeleton.bones.map((b) => b.name), names.map((n) => THREE.PropertyBinding.sanitizeNodeName(n)));
    console.log(`${naming}: ${names.length} joints, names/parents/rest TRS equal to the core's`);
  }
  assert.throws(() => world.rig.addHumanoid({ naming: 'maya' }), (e) => e.code === 'LB_ERR_UNKNOWN_NAME' && e.field === 'naming');
  world.destroy();
});

test('assets: skin, mesh, material and five clips load in three.js GLTFLoader', () => {
  for (const naming of NAMINGS) {
    const { gltf, mesh, json } = rigs[naming];
    assert.ok(mesh, `${naming}: a SkinnedMesh`);
    const geo = mesh.geometry;
    for (const a of ['position', 'normal', 'skinIndex', 'skinWeight']) assert.ok(geo.attributes[a], `${naming}: attribute ${a}`);
    assert.equal(geo.attributes.position.count, 3708); // one smooth body (assets/generate/mesh.mjs)
    assert.ok(mesh.material.isMeshStandardMaterial);
    const w = geo.attributes.skinWeight;
    let maxSum = 0;
    for (let i = 0; i < w.count; i++) maxSum = Math.max(maxSum, Math.abs(w.getX(i) + w.getY(i) + w.getZ(i) + w.getW(i) - 1));
    assert.ok(maxSum < 1e-6, `${naming}: weights sum to 1 (off by ${maxSum})`);
    // Inverse bind matrices undo the rest pose: IBM · bone world = identity.
    gltf.scene.updateMatrixWorld(true);
    let ibm = 0;
    mesh.skeleton.bones.forEach((b, j) => {
      const m = new THREE.Matrix4().multiplyMatrices(b.matrixWorld, mesh.skeleton.boneInverses[j]).elements;
      m.forEach((v, k) => (ibm = Math.max(ibm, Math.abs(v - (k % 5 === 0 ? 1 : 0)))));
    });
    assert.ok(ibm < 1e-5, `${naming}: bone world · inverse bind off identity by ${ibm}`);
    assert.deepEqual(gltf.animations.map((c) => c.name), Object.keys(CLIPS));
    for (const clip of gltf.animations) {
      assert.ok(Math.abs(clip.duration - CLIPS[clip.name]) < 1e-6, `${naming} ${clip.name}: duration ${clip.duration}`);
      assert.equal(clip.tracks.length, mesh.skeleton.bones.length + 1, `${naming} ${clip.name}: a rotation per joint + root translation`);
      const keys = Math.round(CLIPS[clip.name] * 30) + 1;
      for (const tr of clip.tracks) assert.equal(tr.times.length, keys, `${naming} ${clip.name} ${tr.name}: 30 Hz keys`);
    }
    assert.ok(json.animations.flatMap((a) => a.samplers).every((x) => x.interpolation === 'LINEAR'));
    console.log(`${naming}: ${mesh.skeleton.bones.length} joints, ${geo.attributes.position.count} vertices, ${gltf.animations.length} clips, IBM error ${ibm.toExponential(1)}, weight sum error ${maxSum.toExponential(1)}`);
  }
});

test('assets: the mannequin is one smooth skin: closed tubes (every edge on two triangles), under 4,000 vertices, and under every clip no edge grows past 40 mm or 2.5x its rest length (a vertex on the wrong bone or an unblended joint tears further)', async () => {
  const own = await loadGlb('mixamo'); // its own copy: posing it leaves the shared rigs at rest
  const { mesh } = own;
  const index = mesh.geometry.index;
  const rest = mesh.geometry.attributes.position;
  assert.ok(rest.count < 4000, `${rest.count} vertices`);
  const edges = [];
  const uses = new Map();
  for (let t = 0; t < index.count; t += 3) {
    for (let e = 0; e < 3; e++) {
      const [a, b] = [index.getX(t + e), index.getX(t + ((e + 1) % 3))];
      edges.push([a, b]);
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const open = [...uses.values()].filter((n) => n !== 2).length;
  assert.equal(open, 0, `${open} edges not shared by exactly two triangles`);
  const at = (i) => new THREE.Vector3().fromBufferAttribute(rest, i);
  const restLen = edges.map(([a, b]) => at(a).distanceTo(at(b)));
  const sample = sampler(own);
  let ratio = 0;
  let grow = 0;
  for (const [name, dur] of Object.entries(CLIPS)) {
    for (let k = 0; k <= 10; k++) {
      const { verts } = sample(name, (dur * k) / 10);
      edges.forEach(([a, b], e) => {
        const d = verts[a].distanceTo(verts[b]);
        ratio = Math.max(ratio, d / restLen[e]);
        grow = Math.max(grow, d - restLen[e]);
      });
    }
  }
  console.log(`mannequin-mixamo: ${rest.count} vertices, ${index.count / 3} triangles, ${uses.size} edges all closed; under 5 clips x 11 times an edge grows at most ${(grow * 1000).toFixed(1)} mm, ${ratio.toFixed(3)}x its rest length`);
  assert.ok(grow < 0.04 && ratio < 2.5, `edges grow up to ${grow} m, ${ratio}x`);
});

test('assets: the same motion in every convention (skinned vertices and joints agree with the Mixamo rig)', () => {
  const sample = Object.fromEntries(NAMINGS.map((n) => [n, sampler(rigs[n])]));
  // Joints of other rigs matched to Mixamo joints by rest position (metacarpals have no match).
  const restOf = (n) => {
    rigs[n].gltf.scene.updateMatrixWorld(true);
    return rigs[n].mesh.skeleton.bones.map((b) => b.getWorldPosition(new THREE.Vector3()));
  };
  const ref = restOf('mixamo');
  const match = Object.fromEntries(NAMINGS.map((n) => [n, restOf(n).map((p) => ref.findIndex((q) => q.distanceTo(p) < 1e-5))]));
  for (const name of Object.keys(CLIPS)) {
    let vmax = 0;
    let jmax = 0;
    for (let i = 0; i < 20; i++) {
      const t = (CLIPS[name] * i) / 19;
      const m = sample.mixamo(name, t);
      for (const n of NAMINGS.slice(1)) {
        const o = sample[n](name, t);
        o.verts.forEach((v, k) => (vmax = Math.max(vmax, v.distanceTo(m.verts[k]))));
        o.joints.forEach((p, j) => match[n][j] >= 0 && (jmax = Math.max(jmax, p.distanceTo(m.joints[match[n][j]]))));
      }
    }
    console.log(`${name}: max skinned-vertex difference to Mixamo ${vmax.toExponential(2)} m, joints ${jmax.toExponential(2)} m (20 times, 3 rigs)`);
    assert.ok(vmax < 1e-5 && jmax < 1e-5, `${name}: conventions disagree by ${vmax} m`);
  }
  assert.equal(match.unreal.filter((j) => j < 0).length, 8, 'only the 8 metacarpals lack a Mixamo twin');
});

test('assets: the convention rigs (VRM, Biped, four-fingered A-pose) skin to the Mixamo rig\'s vertices under every clip, and differ where they should', async () => {
  const conv = Object.fromEntries(await Promise.all(CONVENTIONS.map(async (n) => [n, await loadGlb(n, 'convention')])));
  const ref = sampler(rigs.mixamo);
  const refBones = rigs.mixamo.mesh.skeleton.bones;
  const skinIndex = rigs.mixamo.mesh.geometry.attributes.skinIndex;
  const skinWeight = rigs.mixamo.mesh.geometry.attributes.skinWeight;
  // The four-fingered rig has no pinky: its pinky vertices follow the hand instead.
  const onPinky = (i) => [0, 1, 2, 3].some((c) => skinWeight.getComponent(i, c) > 0 && /Pinky/.test(refBones[skinIndex.getComponent(i, c)].name));
  for (const n of CONVENTIONS) {
    const sample = sampler(conv[n]);
    let vmax = 0;
    for (const name of Object.keys(CLIPS)) {
      for (let i = 0; i < 10; i++) {
        const t = (CLIPS[name] * i) / 9;
        const m = ref(name, t);
        sample(name, t).verts.forEach((v, k) => (n !== 'daz4' || !onPinky(k)) && (vmax = Math.max(vmax, v.distanceTo(m.verts[k]))));
      }
    }
    console.log(`convention-${n}: ${conv[n].mesh.skeleton.bones.length} joints, max skinned-vertex difference to Mixamo ${vmax.toExponential(2)} m (5 clips x 10 times)`);
    assert.ok(vmax < 1e-5, `convention-${n}: ${vmax} m`);
  }
  const names = (n) => conv[n].json.nodes.map((x) => x.name);
  assert.ok(names('vrm').includes('rightThumbMetacarpal') && !names('vrm').some((x) => /Tip|_End/.test(x)));
  assert.ok(conv.vrm.json.nodes.every((x) => !x.rotation || x.rotation.join() === '0,0,0,1'), 'VRM: identity rest rotations');
  const arm = conv.biped.json.nodes.find((x) => x.name === 'Armature');
  assert.deepEqual(arm.scale, [0.01, 0.01, 0.01].map(Math.fround));
  assert.ok(names('biped').includes('Bip01 R Finger0') && names('biped').includes('Bip01 R Finger02'));
  assert.ok(!names('daz4').some((x) => /Pinky/.test(x)) && names('daz4').includes('rThumb1'));
  // A-pose: the right hand hangs 45 degrees below the shoulder line at rest.
  const fresh = (await loadGlb('daz4', 'convention')).gltf.scene; // not posed by the sampler
  fresh.updateMatrixWorld(true);
  const w = (name) => fresh.getObjectByName(name).getWorldPosition(new THREE.Vector3());
  const down = w('rShldrBend').clone().sub(w('rHand'));
  const angle = (Math.atan2(down.y, Math.abs(down.x)) * 180) / Math.PI;
  console.log(`convention-daz4: rest arm ${angle.toFixed(2)} degrees below horizontal`);
  assert.ok(Math.abs(angle - 45) < 0.5);
});

test('assets: root motion, loop seams and the phase layout of walk and run', () => {
  const { gltf, json, mesh } = rigs.mixamo;
  const bones = mesh.skeleton.bones.map((b) => b.name);
  const sample = sampler(rigs.mixamo);
  for (const clip of gltf.animations) {
    const extras = json.animations.find((a) => a.name === clip.name).extras;
    const tr = clip.tracks.find((t) => t.name === 'Hips.position');
    const n = tr.times.length;
    const d = [0, 1, 2].map((i) => tr.values[3 * (n - 1) + i] - tr.values[i]);
    const speed = d[2] / clip.duration;
    console.log(`${clip.name}: root displacement [${d.map((v) => v.toFixed(4))}] m, ${speed.toFixed(3)} m/s, loop ${extras.loop}`);
    extras.rootDisplacement.forEach((v, i) => assert.ok(Math.abs(v - d[i]) < 1e-6, `${clip.name}: extras.rootDisplacement`));
    if (clip.name === 'walk') assert.ok(Math.abs(speed - 1.4) < 1e-5);
    if (clip.name === 'run') assert.ok(Math.abs(speed - 3.5) < 1e-5);
    if (clip.name === 'idle' || clip.name === 'reach') assert.ok(Math.hypot(...d) < 1e-6);
    if (clip.name === 'vault') assert.ok(d[2] > 1.5 && d[2] < 2.5, 'the vault travels forward over the box');
    if (!extras.loop) continue;
    // Seam: the last key repeats the first (rotations; the root only moved by the displacement).
    let seam = 0;
    for (const t of clip.tracks) {
      const k = t.getValueSize();
      for (let i = 0; i < k; i++) {
        const a = t.values[i], b = t.values[(n - 1) * k + i];
        if (t.name.endsWith('.quaternion')) {
          const dot = [0, 1, 2, 3].reduce((s, c) => s + t.values[c] * t.values[(n - 1) * k + c], 0);
          seam = Math.max(seam, 1 - Math.abs(dot));
        } else seam = Math.max(seam, Math.abs(b - a - d[i]));
      }
    }
    assert.ok(seam < 1e-6, `${clip.name}: loop seam ${seam}`);
  }
  // Walk and run: the left foot is down at phase 0 (lowest it gets, toe planted soon after);
  // in the run the right foot is in the air then. Toe joints stay put while planted.
  const iFoot = (s) => bones.indexOf(`${s}Foot`);
  for (const name of ['walk', 'run']) {
    const dur = CLIPS[name];
    const extras = json.animations.find((a) => a.name === name).extras;
    let lmin = Infinity;
    for (let i = 0; i < 30; i++) lmin = Math.min(lmin, sample(name, (dur * i) / 30).joints[iFoot('Left')].y);
    const at0 = sample(name, 0).joints;
    const left0 = at0[iFoot('Left')].y, right0 = at0[iFoot('Right')].y;
    console.log(`${name}: phase 0 left ankle ${left0.toFixed(4)} m (cycle min ${lmin.toFixed(4)}), right ankle ${right0.toFixed(4)} m; toe planted ${JSON.stringify(extras.toePlanted)}`);
    assert.ok(left0 - lmin < 0.02, `${name}: left foot not down at phase 0`);
    assert.ok(extras.toePlanted.LeftToeBase[0][0] <= 0.15 * dur, `${name}: left toe plants right after phase 0`);
    if (name === 'run') assert.ok(right0 - left0 > 0.05, 'run: right foot in the air at phase 0');
    // Exact at the keys; between keys LINEAR rotations let the toe wander a little.
    let atKeys = 0;
    let between = 0;
    for (const side of ['Left', 'Right']) {
      const j = bones.indexOf(`${side}ToeBase`);
      for (const [t0, t1] of extras.toePlanted[`${side}ToeBase`]) {
        const p0 = sample(name, t0).joints[j];
        for (let k = Math.round(t0 * 30); k <= Math.round(t1 * 30); k++) atKeys = Math.max(atKeys, sample(name, k / 30).joints[j].distanceTo(p0));
        for (let i = 1; i <= 20; i++) between = Math.max(between, sample(name, t0 + ((t1 - t0) * i) / 20).joints[j].distanceTo(p0));
      }
    }
    console.log(`${name}: planted toe drift ${(atKeys * 1000).toFixed(4)} mm at keys, ${(between * 1000).toFixed(2)} mm between keys`);
    assert.ok(atKeys < 1e-5 && between < 0.005, `${name}: planted toe slides ${atKeys} m at keys, ${between} m between`);
  }
});

test('assets: vault plants both hands on the box and tucks the legs; reach gets the right hand to its target', () => {
  const { mesh } = rigs.blender; // the rig with non-identity joint frames
  const bones = mesh.skeleton.bones.map((b) => b.name);
  const sample = sampler(rigs.blender);
  const off = (t) => {
    const j = sample('vault', t).joints;
    return Math.max(j[bones.indexOf('handL')].distanceTo(new THREE.Vector3(...VAULT_PLANT.left)), j[bones.indexOf('handR')].distanceTo(new THREE.Vector3(...VAULT_PLANT.right)));
  };
  let plantKeys = 0;
  for (let k = Math.ceil(VAULT_PLANT.from * 30); k <= Math.floor(VAULT_PLANT.to * 30); k++) plantKeys = Math.max(plantKeys, off(k / 30));
  let plant = 0;
  for (let i = 0; i <= 20; i++) plant = Math.max(plant, off(VAULT_PLANT.from + ((VAULT_PLANT.to - VAULT_PLANT.from) * i) / 20));
  const mid = sample('vault', 0.45).joints;
  const knee = (s) => {
    const [h, k, a] = [`thigh${s}`, `shin${s}`, `foot${s}`].map((n) => mid[bones.indexOf(n)]);
    return THREE.MathUtils.radToDeg(Math.PI - k.clone().sub(h).angleTo(a.clone().sub(k)));
  };
  // Leg joints clear the box top while they are above it.
  const legs = ['shin', 'foot', 'toe', 'toe_end'].flatMap((n) => ['L', 'R'].map((s) => bones.indexOf(n === 'toe_end' ? `toe_end${s}` : `${n}${s}`)));
  let clear = Infinity;
  for (let i = 0; i <= 120; i++) {
    const j = sample('vault', (1.2 * i) / 120).joints;
    for (const k of legs) if (j[k].z >= VAULT_BOX.min[2] && j[k].z <= VAULT_BOX.max[2]) clear = Math.min(clear, j[k].y - VAULT_BOX.max[1]);
  }
  console.log(`vault: wrists within ${(plantKeys * 1000).toFixed(3)} mm of the plant spots at the keys in ${VAULT_PLANT.from}-${VAULT_PLANT.to} s, ${(plant * 1000).toFixed(1)} mm between keys; knee interior angle at 0.45 s ${knee('L').toFixed(0)}°; leg joints clear the box top by ${(clear * 1000).toFixed(1)} mm`);
  assert.ok(plantKeys < 1e-3 && plant < 0.025, `vault: hands ${plantKeys} m (keys), ${plant} m off the plant spots`);
  assert.ok(knee('L') < 90 && knee('R') < 90, 'vault: legs tucked');
  assert.ok(clear > 0 && clear < Infinity, 'vault: legs pass over the box');
  let reach = 0;
  for (let t = 0.5; t <= 0.75; t += 0.05) reach = Math.max(reach, sample('reach', t).joints[bones.indexOf('handR')].distanceTo(new THREE.Vector3(...REACH_TARGET)));
  console.log(`reach: right wrist within ${(reach * 1000).toFixed(2)} mm of [${REACH_TARGET}] from 0.5 to 0.75 s`);
  assert.ok(reach < 0.005);
});

/** Distance from a point (object frame) to a GripSurface entity, and the direction to it. */
function toSurface(p, ent) {
  const tf = ent.components.Transform;
  const s = ent.components.GripSurface;
  const q = new THREE.Quaternion(...(tf.rotation ?? [0, 0, 0, 1]));
  const local = new THREE.Vector3(...p).sub(new THREE.Vector3(...tf.position)).applyQuaternion(q.clone().invert());
  local.sub(new THREE.Vector3(...s.center));
  let closest;
  if (s.shape === 'Sphere') closest = local.clone().setLength(s.radius);
  else if (s.shape === 'Box') closest = local.clone().clamp(new THREE.Vector3(...s.size).multiplyScalar(-0.5), new THREE.Vector3(...s.size).multiplyScalar(0.5));
  else {
    const ax = { X: 0, Y: 1, Z: 2 }[s.direction];
    const along = THREE.MathUtils.clamp(local.getComponent(ax), -s.height / 2, s.height / 2);
    const radial = local.clone().setComponent(ax, 0).setLength(s.radius);
    closest = radial.setComponent(ax, along);
  }
  const d = closest.clone().sub(local);
  return { dist: d.length(), dir: d.normalize().applyQuaternion(q) };
}

test('assets: props are scene fragments whose anchors sit on their grip surfaces, palm facing in', async () => {
  for (const name of PROPS) {
    const prop = JSON.parse(committed(`props/${name}.json`).toString('utf8'));
    const byName = new Map(prop.entities.map((e) => [e.name, e]));
    const obj = byName.get(name);
    const gp = obj.components.GripProfile;
    assert.ok(gp && gp.hand === 'Right' && gp.mirror === 'X' && gp.wrap === true, `${name}: GripProfile`);
    const anchors = [gp.mainAnchor, gp.supportAnchor].filter((a) => a !== null);
    assert.equal(anchors.length, name === 'rifle' ? 2 : 1, `${name}: only the rifle is two-handed`);
    const surfaces = prop.entities.filter((e) => e.components.GripSurface);
    for (const s of surfaces) {
      assert.equal(s.components.Transform.parent, name);
      assert.ok(['Cylinder', 'Capsule', 'Sphere', 'Box'].includes(s.components.GripSurface.shape));
    }
    for (const a of anchors) {
      const tf = byName.get(a).components.Transform;
      assert.equal(tf.parent, name, `${a}: child of ${name}`);
      const q = new THREE.Quaternion(...tf.rotation);
      assert.ok(Math.abs(q.length() - 1) < 1e-6, `${a}: unit rotation`);
      const near = surfaces.map((s) => toSurface(tf.position, s)).sort((x, y) => x.dist - y.dist)[0];
      const palmY = new THREE.Vector3(0, 1, 0).applyQuaternion(q);
      console.log(`${a}: ${(near.dist * 1000).toFixed(1)} mm from its surface, palm normal · direction to it = ${palmY.dot(near.dir).toFixed(3)}`);
      assert.ok(near.dist > 0.01 && near.dist < 0.03, `${a}: palm centre ${near.dist} m from the surface`);
      assert.ok(palmY.dot(near.dir) > 0.9, `${a}: palm (+Y) does not face the surface`);
    }
    if (name === 'rifle') {
      const zs = surfaces.flatMap((s) => {
        const g = s.components.GripSurface, z = s.components.Transform.position[2];
        const h = g.shape === 'Box' ? g.size[2] / 2 : g.direction === 'Z' ? g.height / 2 : g.radius;
        return [z - h, z + h];
      });
      const len = Math.max(...zs) - Math.min(...zs);
      console.log(`rifle: ${len.toFixed(3)} m long, grip radius ${byName.get('rifle.grip').components.GripSurface.radius} m`);
      assert.ok(Math.abs(len - 0.9) < 0.02);
    }
    // The fragment loads as a scene in the core with every component (GripProfile, GripSurface).
    const world = await createWorld();
    const scene = world.loadScene({ name, entities: prop.entities });
    scene.step(0);
    for (const a of anchors) {
      const got = world.worldTransform(scene.entity(a)).t;
      const want = byName.get(a).components.Transform.position;
      got.forEach((v, i) => assert.ok(Math.abs(v - want[i]) < 1e-6, `${a}: world position`));
    }
    world.destroy();
  }
});

// ---- levels --------------------------------------------------------------------

async function loadLevel(name) {
  const buf = committed(`levels/${name}.glb`);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const gltf = await new Promise((ok, err) => new GLTFLoader().parse(ab, '', ok, err));
  gltf.scene.updateMatrixWorld(true);
  const json = JSON.parse(committed(`levels/${name}.json`).toString('utf8'));
  const node = (piece) => gltf.scene.getObjectByName(piece);
  /** World-space bounds of a piece's mesh, as loaded by three.js. */
  const box = (piece) => new THREE.Box3().setFromObject(node(piece));
  return { gltf, json, node, box };
}

const levels = Object.fromEntries(await Promise.all(LEVELS.map(async (n) => [n, await loadLevel(n)])));

test('assets: level glb files load in GLTFLoader with one named node per piece, and the json pieces are those boxes', () => {
  for (const name of LEVELS) {
    const { gltf, json, node } = levels[name];
    assert.equal(json.name, name);
    assert.equal(json.units, 'm');
    const meshes = [];
    gltf.scene.traverse((o) => o.isMesh && meshes.push(o));
    assert.equal(meshes.length, json.pieces.length, `${name}: one mesh node per piece`);
    assert.equal(new Set(json.pieces.map((p) => p.name)).size, json.pieces.length, `${name}: unique piece names`);
    const kinds = [...new Set(json.pieces.map((p) => p.kind))];
    assert.ok(kinds.every((k) => ['floor', 'wall', 'obstacle', 'ramp'].includes(k)), `${name}: kinds ${kinds}`);
    assert.equal(gltf.parser.json.materials.length, kinds.length, `${name}: one material per kind`);
    let pos = 0, rot = 0, size = 0, corner = 0, normal = 0;
    for (const p of json.pieces) {
      const o = node(p.name);
      assert.ok(o && o.isMesh, `${name}: node ${p.name}`);
      assert.equal(p.shape, 'box');
      assert.equal(o.userData.kind, p.kind, `${name}: ${p.name} extras.kind`);
      assert.ok(o.material.isMeshStandardMaterial && o.material.name === p.kind, `${name}: ${p.name} material ${o.material.name}`);
      const geo = o.geometry;
      assert.ok(geo.attributes.normal && geo.index, `${name}: ${p.name} normals and indices`);
      // The node's frame is the piece's centre and rotation; the mesh spans ±size/2.
      const wp = o.getWorldPosition(new THREE.Vector3());
      pos = Math.max(pos, wp.distanceTo(new THREE.Vector3(...p.center)));
      const q = new THREE.Quaternion(...p.rotation);
      rot = Math.max(rot, 1 - Math.abs(o.getWorldQuaternion(new THREE.Quaternion()).dot(q)));
      geo.computeBoundingBox();
      const half = new THREE.Vector3(...p.size).multiplyScalar(0.5);
      size = Math.max(size, geo.boundingBox.max.distanceTo(half), geo.boundingBox.min.distanceTo(half.clone().negate()));
      for (let c = 0; c < 8; c++) {
        const local = new THREE.Vector3(c & 1 ? half.x : -half.x, c & 2 ? half.y : -half.y, c & 4 ? half.z : -half.z);
        const want = local.clone().applyQuaternion(q).add(new THREE.Vector3(...p.center));
        corner = Math.max(corner, o.localToWorld(local.clone()).distanceTo(want));
      }
      // Flat normals point out of the box, and triangles wind counter-clockwise seen from outside.
      const P = geo.attributes.position, N = geo.attributes.normal, I = geo.index;
      for (let t = 0; t < I.count; t += 3) {
        const [a, b, c] = [0, 1, 2].map((k) => new THREE.Vector3().fromBufferAttribute(P, I.getX(t + k)));
        const n = new THREE.Vector3().fromBufferAttribute(N, I.getX(t));
        const face = new THREE.Vector3().subVectors(b, a).cross(new THREE.Vector3().subVectors(c, a)).normalize();
        normal = Math.max(normal, 1 - face.dot(n), Math.abs(a.dot(n) - half.dot(new THREE.Vector3(Math.abs(n.x), Math.abs(n.y), Math.abs(n.z)))));
      }
    }
    console.log(`${name}: ${json.pieces.length} pieces, kinds ${kinds.join('/')}; json vs glb: centre ${pos.toExponential(1)} m, rotation ${rot.toExponential(1)}, half-size ${size.toExponential(1)} m, corners ${corner.toExponential(1)} m; normals/winding off by ${normal.toExponential(1)}`);
    assert.ok(pos < 1e-6 && rot < 1e-6 && size < 1e-6 && corner < 1e-6, `${name}: json pieces and glb boxes differ`);
    assert.ok(normal < 1e-6, `${name}: normals or winding`);
    // The floor's top is y = 0 and the spawn stands on it, facing +Z.
    const floor = levels[name].box('floor');
    assert.ok(Math.abs(floor.max.y) < 1e-6, `${name}: floor top at ${floor.max.y}`);
    assert.deepEqual(json.spawn.facing, [0, 0, 1]);
    assert.equal(json.spawn.position[1], 0);
  }
});

test("assets: corridor touch hints match the mannequin's reach and the closest points on the glb walls", () => {
  const { json, box } = levels.corridor;
  // The reference character from the rig's rest pose (glTF node TRS, not the animated
  // scene): shoulder (upper arm joint), elbow, wrist.
  const nodes = rigs.mixamo.json.nodes;
  const parentOf = (i) => nodes.findIndex((m) => (m.children ?? []).includes(i));
  const at = (name) => {
    const m = new THREE.Matrix4();
    for (let i = nodes.findIndex((x) => x.name === name); i >= 0; i = parentOf(i)) {
      const local = new THREE.Matrix4().compose(new THREE.Vector3(...(nodes[i].translation ?? [0, 0, 0])), new THREE.Quaternion(...(nodes[i].rotation ?? [0, 0, 0, 1])), new THREE.Vector3(1, 1, 1));
      m.premultiply(local);
    }
    return new THREE.Vector3().setFromMatrixPosition(m);
  };
  const [sh, el, wr] = ['LeftArm', 'LeftForeArm', 'LeftHand'].map(at);
  const R = json.reach;
  const arm = sh.distanceTo(el) + el.distanceTo(wr);
  console.log(`corridor: mannequin shoulder ${sh.y.toFixed(4)} m high, ${sh.x.toFixed(4)} m out, arm ${arm.toFixed(4)} m; json reach ${JSON.stringify(R, (k, v) => (k === 'rule' ? undefined : v))}`);
  assert.ok(Math.abs(R.shoulderHeight - sh.y) < 1e-4 && Math.abs(R.shoulderOffset - sh.x) < 1e-4 && Math.abs(R.armLength - arm) < 1e-4);
  const maxDistance = sh.x + R.handOffset + 0.95 * arm;
  assert.ok(Math.abs(R.maxDistance - maxDistance) < 1e-4, `reach ${R.maxDistance} vs ${maxDistance}`);

  const walls = json.pieces.filter((p) => p.kind === 'wall').map((p) => ({ name: p.name, box: box(p.name) }));
  // Lane: the polyline, its arc length and left direction (+Y × forward).
  const pts = json.lane.points.map((p) => new THREE.Vector3(...p));
  const lanePoint = (s) => {
    for (let i = 0; i + 1 < pts.length; i++) {
      const len = pts[i].distanceTo(pts[i + 1]);
      if (s <= len + 1e-9 || i + 2 === pts.length) {
        const dir = pts[i + 1].clone().sub(pts[i]).normalize();
        return { p: pts[i].clone().addScaledVector(dir, s), left: new THREE.Vector3(0, 1, 0).cross(dir) };
      }
      s -= len;
    }
  };
  assert.equal(pts.length, 3, 'one corner');
  const turn = pts[1].clone().sub(pts[0]).normalize().dot(pts[2].clone().sub(pts[1]).normalize());
  assert.ok(Math.abs(turn) < 1e-9, 'the corner is a right angle');
  const cornerS = pts[0].distanceTo(pts[1]);
  // Hints: every reachable wall is tall enough and close enough; the out-of-reach ones are not.
  for (const h of json.touchWalls) {
    const b = box(h.wall);
    const ok = h.distance <= maxDistance && b.max.y >= R.shoulderHeight;
    assert.equal(h.reachable, ok, `${h.wall}: reachable ${h.reachable}`);
  }
  const covered = (side, s) => json.touchWalls.filter((h) => h.side === side && h.reachable && h.from - 1e-9 <= s && s <= h.to + 1e-9);
  const edges = (side) => json.touchWalls.filter((h) => h.side === side && h.reachable).flatMap((h) => [h.from, h.to]);
  // Sample the lane: the seed's closest point on each wall from the lane point raised to
  // shoulder height. Where a hint says "in reach", the nearest wall on that side is at most
  // the hint's distance; in a gap (0.45 m or more from the gap's ends) every wall on that
  // side is beyond reach. The corner itself (within 1 m) is left to the corner entries.
  const stats = { left: { touch: 0, gap: 0, gapMin: Infinity }, right: { touch: 0, gap: 0, gapMin: Infinity } };
  for (let i = 0; i <= json.lane.length * 20; i++) {
    const s = i / 20;
    if (Math.abs(s - cornerS) < 1) continue;
    const { p, left } = lanePoint(s);
    const q = p.clone().setY(R.shoulderHeight);
    const nearest = { left: Infinity, right: Infinity };
    for (const w of walls) {
      const c = w.box.clampPoint(q, new THREE.Vector3());
      if (Math.abs(c.y - q.y) > 1e-9) continue; // the wall does not span shoulder height
      const d = Math.hypot(c.x - q.x, c.z - q.z);
      const side = c.clone().sub(q).dot(left) > 0 ? 'left' : 'right';
      nearest[side] = Math.min(nearest[side], d);
    }
    for (const side of ['left', 'right']) {
      const hs = covered(side, s);
      if (hs.length) {
        stats[side].touch++;
        assert.ok(nearest[side] <= Math.min(...hs.map((h) => h.distance)) + 1e-6, `s ${s}: ${side} wall at ${nearest[side]} m`);
        assert.ok(nearest[side] <= maxDistance);
      } else if (Math.min(...edges(side).map((e) => Math.abs(e - s))) >= 0.45 - 1e-9) {
        stats[side].gap++;
        stats[side].gapMin = Math.min(stats[side].gapMin, nearest[side]);
        assert.ok(nearest[side] > maxDistance, `s ${s}: ${side} gap, but a wall is ${nearest[side]} m away`);
      }
    }
  }
  for (const side of ['left', 'right']) {
    console.log(`corridor ${side}: ${stats[side].touch} lane samples with a wall in reach, ${stats[side].gap} deep in gaps (nearest wall there ${stats[side].gapMin.toFixed(3)} m > reach ${maxDistance.toFixed(4)} m); gaps ${JSON.stringify(json.touchGaps[side])}`);
    assert.ok(stats[side].touch > 100 && stats[side].gap > 0, `${side}: both touching and gaps are exercised`);
  }
  assert.ok(json.touchGaps.left.length >= 3 && json.touchGaps.right.length >= 1);
  // The gaps are the complement of the reachable stretches.
  for (const side of ['left', 'right']) {
    for (let s = 0.025; s < json.lane.length; s += 0.05) {
      const inGap = json.touchGaps[side].some(([a, b]) => a < s && s < b);
      assert.equal(inGap, covered(side, s).length === 0, `${side} at ${s}`);
    }
  }
  // Corners: on a wall, where the faces beside the two segments meet (each at its hint's
  // distance from its segment), with free space toward the lane's turn.
  const segOf = (k) => ({ a: pts[k], left: new THREE.Vector3(0, 1, 0).cross(pts[k + 1].clone().sub(pts[k]).normalize()) });
  for (const c of json.corners) {
    const v = new THREE.Vector3(...c.position).setY(1);
    assert.ok(walls.some((w) => w.box.distanceToPoint(v) < 1e-6), `${c.type} corner at ${c.position}: not on a wall`);
    for (const k of [0, 1]) {
      const { a, left } = segOf(k);
      const lateral = v.clone().sub(a).dot(left) * (c.side === 'left' ? 1 : -1);
      assert.ok(json.touchWalls.some((h) => h.segment === k && h.side === c.side && Math.abs(h.distance - lateral) < 1e-6), `${c.type} corner: segment ${k} face`);
    }
    const inward = pts[1].clone().setY(1).sub(v).normalize().multiplyScalar(0.05).add(v);
    assert.ok(walls.every((w) => !w.box.containsPoint(inward)), `${c.type} corner: free toward the lane`);
  }
});

test('assets: vault course obstacles are vaultable exactly by the documented height/depth rule', () => {
  const { json, box } = levels['vault-course'];
  const R = json.vaultRule;
  const vault = rigs.mixamo.json.animations.find((a) => a.name === 'vault').extras;
  // The rule's takeoff and travel are the vault clip's: its box starts 0.7 m ahead, it lands 2.1 m on.
  assert.equal(R.takeoffDistance, VAULT_BOX.min[2]);
  assert.ok(Math.abs(R.travel - vault.rootDisplacement[2]) < 1e-6, `travel ${R.travel} vs the clip's ${vault.rootDisplacement[2]}`);
  const rule = (h, d) => h >= R.minHeight && h <= R.maxHeight && d >= R.minDepth && d <= R.maxDepth;
  assert.ok(rule(VAULT_BOX.max[1] - VAULT_BOX.min[1], VAULT_BOX.max[2] - VAULT_BOX.min[2]), "the vault clip's own box is vaultable");
  const obstacles = json.pieces.filter((p) => p.kind === 'obstacle');
  assert.deepEqual(json.obstacles.map((o) => o.piece), obstacles.map((p) => p.name));
  const count = { yes: 0, tooHigh: 0, tooDeep: 0, other: 0 };
  let clipBox = 0;
  json.obstacles.forEach((o, i) => {
    const b = box(o.piece);
    const h = b.max.y, d = b.max.z - b.min.z;
    assert.ok(Math.abs(b.min.y) < 1e-6, `${o.piece}: stands on the floor`);
    assert.ok(b.min.x < 0 && b.max.x > 0, `${o.piece}: crosses the lane`);
    assert.ok(Math.abs(h - o.height) < 1e-6 && Math.abs(d - o.depth) < 1e-6, `${o.piece}: height/depth ${h}/${d} vs ${o.height}/${o.depth}`);
    assert.equal(o.vaultable, rule(h, d), `${o.piece}: vaultable ${o.vaultable} for ${h.toFixed(3)} x ${d.toFixed(3)} m`);
    assert.ok(Math.abs(o.takeoff[2] - (b.min.z - R.takeoffDistance)) < 1e-6, `${o.piece}: takeoff`);
    const prev = i > 0 ? box(json.obstacles[i - 1].piece) : null;
    assert.ok(!prev || prev.max.z < o.takeoff[2], `${o.piece}: run-up clear of the previous obstacle`);
    if (o.vaultable) {
      count.yes++;
      assert.ok(o.landing[2] > b.max.z, `${o.piece}: lands past it`);
      const next = json.obstacles[i + 1];
      assert.ok(!next || o.landing[2] < next.takeoff[2], `${o.piece}: lands before the next takeoff`);
      if (Math.abs(h - 0.75) < 1e-6 && Math.abs(d - 0.4) < 1e-6) clipBox++;
    } else if (h > R.maxHeight && d >= R.minDepth && d <= R.maxDepth) {
      count.tooHigh++;
      assert.match(o.why, /height/);
    } else if (d > R.maxDepth && h >= R.minHeight && h <= R.maxHeight) {
      count.tooDeep++;
      assert.match(o.why, /depth/);
    } else count.other++;
    console.log(`${o.piece}: ${h.toFixed(2)} m high, ${d.toFixed(2)} m deep -> ${o.vaultable ? 'vault' : 'no vault'} (${o.why})`);
  });
  console.log(`vault course: ${count.yes} vaultable, ${count.tooHigh} too high, ${count.tooDeep} too deep, ${count.other} other (rule ${R.minHeight}-${R.maxHeight} m high, ${R.minDepth}-${R.maxDepth} m deep)`);
  assert.ok(count.yes >= 3 && count.tooHigh >= 1 && count.tooDeep >= 1 && clipBox === 1);
});

/** A binary-heap Dijkstra over an 8-connected grid; `step(a, b)` is the cost or Infinity. */
function gridPaths(n, start, step) {
  const dist = new Float64Array(n * n).fill(Infinity);
  const heap = [];
  const push = (d, i) => {
    heap.push([d, i]);
    for (let k = heap.length - 1; k > 0; ) {
      const p = (k - 1) >> 1;
      if (heap[p][0] <= heap[k][0]) break;
      [heap[p], heap[k]] = [heap[k], heap[p]];
      k = p;
    }
  };
  const pop = () => {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      for (let k = 0; ; ) {
        const l = 2 * k + 1, r = l + 1;
        let m = k;
        if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
        if (m === k) break;
        [heap[m], heap[k]] = [heap[k], heap[m]];
        k = m;
      }
    }
    return top;
  };
  dist[start] = 0;
  push(0, start);
  while (heap.length) {
    const [d, i] = pop();
    if (d > dist[i]) continue;
    const x = i % n, z = (i - x) / n;
    for (let dz = -1; dz <= 1; dz++) {
      for (let dx = -1; dx <= 1; dx++) {
        if ((!dx && !dz) || x + dx < 0 || x + dx >= n || z + dz < 0 || z + dz >= n) continue;
        const j = i + dz * n + dx;
        const c = step(i, j, dx && dz ? Math.SQRT2 : 1);
        if (d + c < dist[j]) {
          dist[j] = d + c;
          push(dist[j], j);
        }
      }
    }
  }
  return dist;
}

test('assets: nav arena destinations are reachable for the agent radius (grid over the glb), the gap is passable, the slit is not, the ramp is the way up', () => {
  const { json, node, box } = levels['nav-arena'];
  const r = json.agentRadius;
  const floor = box('floor');
  assert.ok(Math.abs(floor.max.x - floor.min.x - 20) < 1e-6 && Math.abs(floor.max.z - floor.min.z - 20) < 1e-6, 'a 20 x 20 m floor');
  // Heights: rays down onto the walkable meshes (floor kind and the ramp), at cell centres.
  const CELL = 0.1;
  const n = Math.round(20 / CELL);
  const walk = json.pieces.filter((p) => p.kind === 'floor').map((p) => node(p.name));
  const ramp = node(json.ramp.piece);
  const blockers = json.pieces.filter((p) => p.kind === 'wall' || p.kind === 'obstacle').map((p) => ({ name: p.name, box: box(p.name) }));
  const ray = new THREE.Raycaster();
  const down = new THREE.Vector3(0, -1, 0);
  const heightAt = (x, z, objs) => {
    ray.set(new THREE.Vector3(x, 10, z), down);
    const hit = ray.intersectObjects(objs, false)[0];
    return hit ? hit.point.y : -Infinity;
  };
  const cx = (i) => floor.min.x + CELL * (i + 0.5);
  const ground = new Float64Array(n * n), withRamp = new Float64Array(n * n);
  for (let z = 0; z < n; z++) {
    for (let x = 0; x < n; x++) {
      ground[z * n + x] = heightAt(cx(x), cx(z), walk);
      withRamp[z * n + x] = Math.max(ground[z * n + x], heightAt(cx(x), cx(z), [ramp]));
    }
  }
  const STEP = 0.3; // what the agent steps onto without it being an obstacle
  const blocked = (i, h, extra) => {
    const x = cx(i % n), z = cx(Math.floor(i / n));
    return [...blockers, ...extra].some(({ box: b }) => b.max.y > h + STEP && Math.hypot(Math.max(b.min.x - x, 0, x - b.max.x), Math.max(b.min.z - z, 0, z - b.max.z)) < r);
  };
  const solve = (heights, extra = []) => {
    const free = Array.from({ length: n * n }, (_, i) => Number.isFinite(heights[i]) && !blocked(i, heights[i], extra));
    // Climb at most 0.06 m per cell (a 31° slope): the ramp (14°) passes, the platform's 1 m edge does not.
    return gridPaths(n, cell(json.spawn.position), (i, j, c) => (free[i] && free[j] && Math.abs(heights[i] - heights[j]) <= 0.06 ? c * CELL : Infinity));
  };
  const cell = ([x, , z]) => Math.floor((z - floor.min.z) / CELL) * n + Math.floor((x - floor.min.x) / CELL);
  const paths = solve(withRamp);
  for (const d of json.destinations) {
    const i = cell(d.position);
    console.log(`nav-arena: ${d.name} at [${d.position}] reached in ${paths[i].toFixed(2)} m of grid path (walk height ${withRamp[i].toFixed(4)} m)`);
    assert.ok(Number.isFinite(paths[i]), `${d.name}: unreachable`);
    assert.ok(Math.abs(withRamp[i] - d.position[1]) < 1e-6, `${d.name}: not on a walkable surface`);
  }
  // Without the ramp the platform is out of reach.
  const noRamp = solve(ground);
  const plat = json.destinations.find((d) => d.position[1] > 0.5);
  assert.ok(!Number.isFinite(noRamp[cell(plat.position)]), 'the platform needs the ramp');
  // The ramp: its top surface rises linearly from the floor to the platform's top.
  const { bottom, top } = json.ramp;
  let rampErr = 0;
  for (let k = 1; k < 20; k++) {
    const t = k / 20;
    const x = bottom[0] + (top[0] - bottom[0]) * t, z = bottom[2] + (top[2] - bottom[2]) * t;
    rampErr = Math.max(rampErr, Math.abs(heightAt(x, z, [ramp]) - (bottom[1] + (top[1] - bottom[1]) * t)));
  }
  const slope = THREE.MathUtils.radToDeg(Math.atan2(top[1] - bottom[1], Math.hypot(top[0] - bottom[0], top[2] - bottom[2])));
  assert.ok(Math.abs(heightAt(top[0], top[2] - 0.01, walk) - top[1]) < 1e-6, 'the ramp meets the platform top');
  console.log(`nav-arena: ramp surface within ${rampErr.toExponential(1)} m of the line from [${bottom}] to [${top}], slope ${slope.toFixed(2)}° (json ${json.ramp.slopeDeg})`);
  assert.ok(rampErr < 1e-5 && Math.abs(slope - json.ramp.slopeDeg) < 1e-6);
  // Openings: the declared width is the clearance between the two pieces; passable iff ≥ 2 radii.
  for (const o of json.openings) {
    const [a, b] = o.between.map(box);
    const w = Math.max(a.min.x - b.max.x, b.min.x - a.max.x, a.min.z - b.max.z, b.min.z - a.max.z);
    assert.ok(Math.abs(w - o.width) < 1e-6, `${o.name}: width ${w} vs ${o.width}`);
    assert.equal(o.passable, w >= 2 * r, `${o.name}: passable`);
    const i = cell(o.center);
    assert.equal(!blocked(i, withRamp[i], []), o.passable, `${o.name}: centre cell free for the agent`);
  }
  // The narrow gap is the short way to behind_gap: closing it makes the path longer.
  const gap = json.openings.find((o) => o.name === 'narrow_gap');
  const plug = new THREE.Box3(new THREE.Vector3(gap.center[0] - gap.width / 2, 0, gap.center[2] - 0.1), new THREE.Vector3(gap.center[0] + gap.width / 2, 2, gap.center[2] + 0.1));
  const closed = solve(withRamp, [{ name: 'plug', box: plug }]);
  const behind = cell(json.destinations.find((d) => d.name === 'behind_gap').position);
  console.log(`nav-arena: behind_gap ${paths[behind].toFixed(2)} m through the ${gap.width} m gap, ${closed[behind].toFixed(2)} m with it closed; agent radius ${r} m`);
  assert.ok(closed[behind] > paths[behind] + 0.5);
});
