// Baseline for benches "anim.character" (mannequin-mixamo.glb, 65 joints) and
// "anim.character_unreal" (mannequin-unreal.glb, 73 joints): the same characters animated
// by three.js, in Node, no rendering.
//
//   node tests/bench/three_anim.mjs [--bench NAME]... [--runs N] [--iters N] [--warmup N]
//
// Prints one JSON line per bench in limber_bench's format (see tests/bench/bench_main.c).
//
// Setup mirrors tests/bench/bench_anim.c: GLTFLoader parses the same .glb (read from
// assets/rigs/), 100 SkeletonUtils.clone copies of its scene, each with an AnimationMixer
// playing idle, walk and run (looping) at weights 0.2 / 0.5 / 0.3, character i starting
// i * 0.173 s into the clips. One operation = one character for one step:
// mixer.update(1/60) then updateMatrixWorld(true) of the character's root (every bone's
// local and world matrix, plus the skinned mesh node). Characters are visited in order, as
// in the C bench. No error is measured (0).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnimationMixer, LoopRepeat } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { clone } from 'three/examples/jsm/utils/SkeletonUtils.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHARACTERS = 100;
const DT = 1 / 60;
const PHASE = 0.173;
const CLIPS = ['idle', 'walk', 'run'];
const WEIGHTS = [0.2, 0.5, 0.3];

function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? Number(process.argv[i + 1]) : def;
}

export async function loadGlb(file) {
  const b = readFileSync(path.join(ROOT, 'assets', 'rigs', file));
  const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
}

/** 100 animated clones of the file's scene; run(iters) animates `iters` characters. */
export async function createCrowd(file) {
  const gltf = await loadGlb(file);
  const clips = CLIPS.map((name) => {
    const c = gltf.animations.find((a) => a.name === name);
    if (!c) throw new Error(`three_anim: ${file} has no clip '${name}'`);
    return c;
  });
  const characters = [];
  let bones = 0;
  gltf.scene.traverse((o) => {
    if (o.isBone) bones++;
  });
  for (let i = 0; i < CHARACTERS; ++i) {
    const root = clone(gltf.scene);
    const mixer = new AnimationMixer(root);
    clips.forEach((clip, k) => {
      const action = mixer.clipAction(clip);
      action.setLoop(LoopRepeat, Infinity);
      action.setEffectiveWeight(WEIGHTS[k]);
      action.play();
    });
    mixer.setTime(i * PHASE);
    root.updateMatrixWorld(true);
    characters.push({ root, mixer });
  }
  let next = 0;
  function run(iters) {
    for (let i = 0; i < iters; ++i) {
      const c = characters[next];
      c.mixer.update(DT);
      c.root.updateMatrixWorld(true);
      if (++next === CHARACTERS) next = 0;
    }
  }
  return { run, bones, characters };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

async function bench(name, file, { runs, iters, warmup }) {
  const { run, bones } = await createCrowd(file);
  for (let w = 0; w < warmup; ++w) run(iters);
  const samples = [];
  for (let r = 0; r < runs; ++r) {
    const t0 = process.hrtime.bigint();
    run(iters);
    const t1 = process.hrtime.bigint();
    samples.push(Number(t1 - t0) / 1e3 / iters);
  }
  return {
    bench: name,
    target: 'three',
    unit: 'us',
    min: Math.min(...samples),
    median: median(samples),
    runs,
    iters,
    samples,
    mean_error: 0,
    max_error: 0,
    failures: 0,
    what: `per character (${bones} bones): three.js AnimationMixer.update (idle+walk+run, 0.2/0.5/0.3) + updateMatrixWorld(true), 100 SkeletonUtils clones`,
  };
}

// Benches this baseline implements (run.mjs asks for them with --bench NAME).
export const BENCHES = {
  'anim.character': (o) => bench('anim.character', 'mannequin-mixamo.glb', o),
  'anim.character_unreal': (o) => bench('anim.character_unreal', 'mannequin-unreal.glb', o),
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.flatMap((a, i) => (a === '--bench' ? [process.argv[i + 1]] : []));
  let status = 0;
  for (const name of names.length ? names : Object.keys(BENCHES)) {
    if (!BENCHES[name]) {
      console.error(`three_anim: no three.js baseline for bench '${name}'`);
      status = 1;
      continue;
    }
    const r = await BENCHES[name]({ runs: arg('--runs', 7), iters: arg('--iters', 2000), warmup: arg('--warmup', 10) });
    console.log(JSON.stringify(r));
  }
  process.exitCode = status;
}
