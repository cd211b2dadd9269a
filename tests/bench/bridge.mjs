// bridge.*: what the TypeScript bridge (dist/web/bridge, the npm package's World) costs per
// call on top of the core, for the calls a game makes per character per frame:
//   bridge.get.transform             world.get(e, Transform)
//   bridge.get.character_controller  world.get(e, CharacterController) (22 fields)
//   bridge.update.transform          world.update(e, Transform, t => { t.position = ... })
//   bridge.step.empty                world.step(1/60) on a world of one entity
//   bridge.local_pose                world.localPose(hero, out): 65 joints refilled in place
//   bridge.model_matrices            world.modelMatrices(hero, out): 65 4x4 into a Float32Array
// One world, one entity; the default wasm (SIMD) build. Prints one JSON line per bench in
// the limber_bench format.
//   node tests/bench/bridge.mjs [--bench NAME]... [--runs N] [--iters N] [--warmup N]
const { createWorld, Transform, CharacterController, Rig } = await import('../../dist/web/bridge/index.js');

function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : def;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
};

const world = await createWorld();
const e = world.spawn();
world.insert(e, Transform, { position: [0, 0.01, 0] });
world.insert(e, CharacterController, {});
const hero = world.spawn();
world.insert(hero, Transform, {});
world.insert(hero, Rig, { asset: world.rig.addHumanoid({ height: 1.8 }) });
let pose;
const matrices = new Float32Array(16 * 256);
let sink = 0;
const BENCHES = {
  'bridge.get.transform': ['world.get(e, Transform)', () => (sink += world.get(e, Transform).position[1])],
  'bridge.get.character_controller': ['world.get(e, CharacterController), 22 fields', () => (sink += world.get(e, CharacterController).radius)],
  'bridge.update.transform': ['world.update(e, Transform, t => { t.position = [...] })', (i) => world.update(e, Transform, (t) => { t.position = [0, 0.01 * (i & 7), 0]; })],
  'bridge.step.empty': ['world.step(1/60), one entity', () => world.step(1 / 60)],
  'bridge.local_pose': ['world.localPose(hero, out), builtin humanoid, refilled in place', () => (pose = world.localPose(hero, pose))],
  'bridge.model_matrices': ['world.modelMatrices(hero, out), builtin humanoid, into a Float32Array', () => world.modelMatrices(hero, matrices)],
};

const names = process.argv.flatMap((a, i) => (a === '--bench' ? [process.argv[i + 1]] : []));
const runs = arg('--runs', 7), iters = arg('--iters', 20000), warmup = arg('--warmup', 1);
for (const name of names.length ? names : Object.keys(BENCHES)) {
  const b = BENCHES[name];
  if (!b) {
    console.error(`bridge: no bench '${name}'`);
    process.exitCode = 1;
    continue;
  }
  const [what, op] = b;
  for (let w = 0; w < warmup; w++) for (let i = 0; i < iters; i++) op(i);
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iters; i++) op(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e3 / iters);
  }
  console.log(JSON.stringify({ bench: name, target: 'ts', unit: 'us', min: Math.min(...samples), median: median(samples), runs, iters, samples, mean_error: 0, max_error: 0, failures: Number.isFinite(sink) ? 0 : 1, what }));
}
world.destroy();
