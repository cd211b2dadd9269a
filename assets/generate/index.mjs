#!/usr/bin/env node
// Reproducible asset generator: `npm run assets` (or node assets/generate/index.mjs
// [--out DIR] [--no-build]) writes
//   assets/rigs/mannequin-{mixamo,unreal,blender,digits}.glb — the core's procedural
//     humanoid (1.8 m, 65 joints; Unreal 73 with metacarpals) in four naming and
//     bone-axis conventions, a smooth skinned mannequin (mesh.mjs) and the clips idle, walk,
//     run, vault, reach (30 Hz LINEAR, root motion on the Hips translation);
//   assets/rigs/convention-{vrm,biped,daz4}.glb — the same body and hand geometry in
//     VRM 1.0, 3ds Max Biped (Z-up centimetre armature) and Daz-style four-fingered A-pose
//     conventions (conventions.mjs), for the grip's convention checks;
//   assets/props/{rifle,pistol,hammer,cup,ball}.json — scene-entity fragments with
//     GripProfile anchors and GripSurface shapes;
//   assets/levels/{corridor,vault-course,nav-arena}.{glb,json} — level pieces as
//     meshes (one node per piece) and as data (boxes, spawn, and per level the
//     touch-wall hints, vaultability or nav destinations; levels.mjs);
//   assets/levels/<level>.navmesh.json — each level's navmesh baked with Recast
//     (@recast-navigation through the bridge's bakeNavMeshData), in Limber's format.
// Skeletons come from the core itself through the wasm bridge (built first unless
// --no-build). Mixamo names are plain ("Hips", no "mixamorig:" prefix), as the core
// names them; three.js strips ':' and '.' from node names anyway.
//
// Determinism: no clock, no randomness, a fixed key count per clip, every value
// rounded to float32 and JSON written with a fixed key order. Math.sin/cos are used
// here (a tool run on one machine, not the runtime bone path); the output bytes are
// pinned by sha256 in tests/node/assets.test.mjs, which regenerates and compares.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Body } from './body.mjs';
import { FPS, sampleClip } from './clips.mjs';
import { CLIPS } from './motion.mjs';
import { levelFiles, levelNavMesh, referenceCharacter } from './levels.mjs';
import { propFiles } from './props.mjs';
import { rigGlb } from './rig-glb.mjs';
import { conventionRigs } from './conventions.mjs';
import { readRigs } from './skeleton.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const HEIGHT = 1.8;

/** Generates every asset in memory: [relative path, bytes] in a fixed order. */
export async function generate({ bridge } = {}) {
  const b = bridge ?? (await import(pathToFileURL(join(root, 'dist/web/bridge/index.js')).href));
  const { canon, rigs } = await readRigs(b, HEIGHT);
  const body = new Body(canon);
  const keys = CLIPS.map((c) => sampleClip(body, c));
  const files = [];
  for (const rig of rigs) {
    const meta = { naming: rig.naming, height: HEIGHT, up: '+Y', forward: '+Z', left: '+X', fps: FPS };
    files.push([`rigs/mannequin-${rig.naming}.glb`, rigGlb(rig, canon, CLIPS, keys, meta)]);
  }
  // Rigs in other tools' conventions, for the grip's convention checks (conventions.mjs).
  for (const rig of conventionRigs(canon)) {
    const meta = { naming: rig.naming, height: HEIGHT, up: '+Y', forward: '+Z', left: '+X', fps: FPS, test: 'convention rig: same hand geometry as the mannequins' };
    if (rig.armature) meta.armature = 'Z-up centimetres under a node turned -90 degrees about X, scaled 0.01';
    if (rig.motionRot) meta.restPose = 'A-pose (arms 45 degrees down); clips are written for the T-pose';
    files.push([`rigs/convention-${rig.naming}.glb`, rigGlb(rig, canon, CLIPS, keys, meta)]);
  }
  for (const [name, text] of propFiles()) files.push([`props/${name}.json`, new TextEncoder().encode(text)]);
  const levels = levelFiles(referenceCharacter(canon));
  for (const [rel, bytes] of levels) {
    files.push([rel, bytes]);
    // Each level's navmesh, baked with Recast (@recast-navigation) through the bridge.
    if (rel.endsWith('.json')) files.push([rel.replace(/\.json$/, '.navmesh.json'), new TextEncoder().encode(await levelNavMesh(b, new TextDecoder().decode(bytes)))]);
  }
  return { files, rigs, clips: CLIPS };
}

async function main(argv) {
  const outIdx = argv.indexOf('--out');
  const out = outIdx >= 0 ? argv[outIdx + 1] : join(root, 'assets');
  if (!out) throw new Error('assets: --out needs a directory');
  if (!argv.includes('--no-build')) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet', 'wasm', 'ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } });
    if (r.status !== 0) throw new Error('assets: the wasm/TypeScript build failed');
  }
  const { files, rigs, clips } = await generate();
  for (const [rel, bytes] of files) {
    const path = join(out, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    const rig = rigs.find((r) => rel.endsWith(`-${r.naming}.glb`));
    const what = rig ? `${rig.names.length} joints, ${clips.length} clips (${clips.map((c) => c.name).join(', ')})` : rel.endsWith('.navmesh.json') ? 'navmesh' : rel.startsWith('rigs/') ? 'convention rig' : rel.startsWith('levels/') ? 'level' : 'prop';
    process.stdout.write(`${relative(process.cwd(), path) || path}  ${bytes.byteLength} bytes  ${what}\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exit(1);
  });
}
