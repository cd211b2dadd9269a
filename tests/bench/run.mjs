// Benchmark runner behind `npm run bench`.
//
//   node tests/bench/run.mjs [--json] [--runs N] [--rounds R] [--iters N]
//                            [--bench NAME]... [--target NAME]... [--no-build]
//
// Builds what is missing or stale, quietly: the native preset's limber_bench and
// the same C linked with emcc against the wasm presets' core library (CMake target
// limber_bench_wasm: build/bench/bench-simd.js from the wasm preset, with -msimd128,
// build/bench/bench-scalar.js from wasm-scalar), so the wasm targets time the objects
// the shipped .wasm is made of. Then every bench runs on every target in
// this one invocation: --runs timed runs per target (default 9, at least 5), each a
// batch of operations (the bench's default, e.g. 100000 solves, or --iters), spread
// over --rounds rounds (default 3). A round starts one process per target (1
// untimed warm-up batch, then its share of the runs), targets rotating order, so a
// slow spell of the (shared, noisy) machine hits every target rather than one. Min
// and median over all runs are kept. The three.js baselines run each timed run in a process
// of its own (TARGETS.three; three_anim.mjs warms up for 10 batches, three_ik.mjs for one).
// Baselines (e.g. three.js) are measured in the same invocation, each bench by its script
// (THREE_SCRIPTS below: three_ik.mjs, three_anim.mjs; rapier_collide.mjs for the collide.corridor.*
// and controller.move benches: target rapier = Rapier's own queries and character controller,
// limber-rapier = limber/rapier's adapter; DETOUR_SCRIPTS: detour_nav.mjs, Detour's computePath
// for nav.path, whose mesh and pairs nav_field.mjs writes before any target runs;
// detour_crowd.mjs, Detour Crowd's update for nav.crowd.*, on the same field and agents). The emcc
// builds read files
// (assets/rigs/*.glb) from the working directory, the repo root, through -sNODERAWFS.
//
// --bench NAME selects one bench, or a family by its dotted prefix: --bench world.scale
// runs world.scale.object.{10,100,1000,10000} and world.scale.hand.{...}.
//
// world.player (tests/bench/bench_player.c): one player character with every system at once
// (Animator with a damped MoveSpeed, CharacterController, a two-handed rifle, EnvironmentInteraction,
// Vault probing every step, a NavAgent whose legs alternate Both and Manual) on the nav arena;
// microseconds per lb_world_step, the game's rules between steps untimed. world.player.stage.<phase>
// runs the same step phase by phase and times one phase: the table's stage split adds up to it.
//
// world.scale (tests/bench/bench_scale.c): the grip-lab hold (a character holding a
// rifle, GripHolder placement Object or Hand) repeated N = 10, 100, 1000, 10000 times
// in one world built through the scene API; the sample is microseconds per character
// per lb_world_step (1/60 s), batches shrink with N to a single step at N = 10000. The
// table adds, per placement and target, the cost per character at N = 1000 and 10000
// over the cost at N = 10 (mins): 1.0 = linear in the number of characters. Setup
// loads N * 7 entities; the family runs in every `npm run bench`.
//
// --json  one line per (bench, target), the DESIGN.md contract:
//         {"bench":"ik.two_bone","target":"native","unit":"us","min":X,"median":Y,"runs":N}
// else    a readable table with "x faster" = baseline min / target min.
// Always  build/bench/results.csv (one row per bench and target, this run only).
//
// --instructions  instead of timing: instructions per operation, counted by valgrind
//         (callgrind) over two batches of different sizes with no warm-up, the difference over
//         the difference in operations (setup cancels out). Independent of the machine's load,
//         so two builds compare on a noisy machine; slow (valgrind): pick benches with --bench.
//         Targets native (the default), wasm-simd and wasm (--target): the wasm ones count the
//         x86 code V8 makes of the module, with its optimising compiler only and no concurrency
//         (WASM_COUNT_FLAGS), which repeats within 0.3 %. Prints a table, or with --json
//         {"bench","target","unit":"instr","min":X,...}.
//
// nav.crowd.<N> (tests/bench/bench_nav.c): N = 100, 1000 NavAgents crossing the nav field both
// ways at the same density, microseconds per agent per step of the Move phase, with avoidance
// (the default) and, as nav.crowd.<N>.off, without; Detour Crowd (detour_crowd.mjs: with obstacle
// avoidance and separation, and without) is the baseline. --bench nav.crowd runs the four; the
// table adds, per target, avoidance on / off and the cost per agent at 1000 over 100 (mins).
//
// Nothing is asserted about speed: numbers are printed; the exit status is non-zero
// only when a target could not be built or run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { prepareNavCrowd, prepareNavField } from './nav_field.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BENCH_DIR = path.join(ROOT, 'tests', 'bench');
const OUT_DIR = path.join(ROOT, 'build', 'bench');
const NATIVE_BIN = path.join(ROOT, 'build', 'native', 'limber_bench');
const CJSON_DIR = path.join(ROOT, 'build', 'third_party', 'cjson');
const MIN_RUNS = 5;

const SCALE_SIZES = [10, 100, 1000, 10000]; // world.scale.<placement>.<N>, N = characters

// Benches and the targets each runs on; `baseline` names the target the ratios
// compare against. Add a bench here (and in tests/bench/bench_main.c or a
// baseline script) to get it into the table, the JSON and the CSV.
const COLLIDE_QUERIES = ['closest', 'sphere_cast', 'ray'];
const NAV_CROWD_SIZES = [100, 1000];
const NAV_CROWD_BENCHES = NAV_CROWD_SIZES.flatMap((n) => [`nav.crowd.${n}`, `nav.crowd.${n}.off`]);
const COLLIDE_SCENES = ['100', '1000', 'mesh'];
const PLAYER_PHASES = ['animate', 'move', 'model', 'reach', 'grip', 'output'];
const CONTROLLER_STAGES = ['casts', 'slide', 'step', 'snap'];
const BENCHES = [
  { name: 'ik.two_bone', targets: ['native', 'wasm-simd', 'wasm', 'three'], baseline: 'three' },
  { name: 'world.step_ik', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'grip.hand', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'grip.character', targets: ['native', 'wasm-simd', 'wasm'] },
  // The parts of grip.hand (its two jobs) and of grip.character (the phase's arms and fingers
  // parts) on the same data: each job's share.
  { name: 'grip.stage.pose', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'grip.stage.wrap', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'grip.stage.arms', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'grip.stage.fingers', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'anim.character', targets: ['native', 'wasm-simd', 'wasm', 'three'], baseline: 'three' },
  { name: 'anim.character_unreal', targets: ['native', 'wasm-simd', 'wasm', 'three'], baseline: 'three' },
  // The stages of anim.character on the same data: where its time goes.
  { name: 'anim.stage.sample', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'anim.stage.blend', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'anim.stage.sample_blend', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'anim.stage.model', targets: ['native', 'wasm-simd', 'wasm'] },
  // Animated characters in one world: the whole step per character (bench_crowd.c).
  { name: 'world.crowd.100', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'world.crowd.1000', targets: ['native', 'wasm-simd', 'wasm'] },
  // The same world made with lb_world_def.threads = 1 and 2, natively and on limber-mt's core
  // (wasm-mt: bench-mt.js, its workers Node worker_threads); t2 / t1 is the 2-thread speed-up
  // of the step's parallel sections.
  { name: 'world.crowd.1000.t1', targets: ['native', 'wasm-mt'] },
  { name: 'world.crowd.1000.t2', targets: ['native', 'wasm-mt'] },
  // One player with every system (bench_player.c): the step a third-person game pays for its
  // player, and the step phase by phase (each stage times its phase itself, so their
  // instruction counts would be the whole step's: --instructions leaves them out).
  { name: 'world.player', targets: ['native', 'wasm-simd', 'wasm'] },
  ...PLAYER_PHASES.map((p) => ({ name: `world.player.stage.${p}`, targets: ['native', 'wasm-simd', 'wasm'], selfTimed: true })),
  // 1,000 NPCs on the nav arena, each with Animator, CharacterController, NavAgent,
  // EnvironmentInteraction and a Vault probe every step (bench_npc.c): microseconds per
  // character-step, and the step phase by phase (self-timed, like world.player's stages).
  { name: 'world.npc.1000', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'world.npc.1000.t1', targets: ['native', 'wasm-mt'] },
  { name: 'world.npc.1000.t2', targets: ['native', 'wasm-mt'] },
  ...PLAYER_PHASES.map((p) => ({ name: `world.npc.1000.stage.${p}`, targets: ['native', 'wasm-simd', 'wasm'], selfTimed: true })),
  // collide.<query>.<scene>: built-in collision queries (tests/bench/bench_collide.c); the
  // .brute twin (every collider / triangle tested) is the in-run baseline: the table adds
  // brute / tree per target.
  ...COLLIDE_QUERIES.flatMap((q) =>
    COLLIDE_SCENES.flatMap((sc) => ['', '.brute'].map((b) => ({ name: `collide.${q}.${sc}${b}`, targets: ['native', 'wasm-simd', 'wasm'] }))),
  ),
  // The corridor level's queries and controller moves (bench_controller.c) next to Rapier's
  // own queries and KinematicCharacterController, and limber/rapier's adapter over them
  // (rapier_collide.mjs), same inputs.
  ...['closest_point', 'raycast', 'sphere_cast', 'capsule_cast'].map((q) => ({
    name: `collide.corridor.${q}`,
    targets: ['native', 'wasm-simd', 'wasm', 'rapier', 'limber-rapier'],
    baseline: 'rapier',
  })),
  { name: 'controller.move', targets: ['native', 'wasm-simd', 'wasm', 'rapier', 'limber-rapier'], baseline: 'rapier' },
  // Where controller.move's time goes, on the same moves (bench_controller.c traces one lap):
  // its queries alone, and the slide, step and snap stages (each with its own queries).
  ...CONTROLLER_STAGES.map((st) => ({ name: `controller.stage.${st}`, targets: ['native', 'wasm-simd', 'wasm'] })),
  // interact.character.<N>: one character's EnvironmentInteraction (queries + arm IK) among N colliders.
  { name: 'interact.character.100', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'interact.character.1000', targets: ['native', 'wasm-simd', 'wasm'] },
  // vault.detect.<course|1000>: one character's vault detection (the probe job) per step on the
  // vault course, alone and among 1,000 colliders.
  { name: 'vault.detect.course', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'vault.detect.1000', targets: ['native', 'wasm-simd', 'wasm'] },
  // nav.path: one path query on a 2,000+ polygon Recast bake (nav_field.mjs writes the mesh and
  // the pairs first); Detour's computePath on the same mesh and pairs is the baseline.
  { name: 'nav.path', targets: ['native', 'wasm-simd', 'wasm', 'detour'], baseline: 'detour', prepare: prepareNavField },
  // nav.agents.<N>: one NavAgent's share of the Move phase with N agents on the nav arena.
  { name: 'nav.agents.100', targets: ['native', 'wasm-simd', 'wasm'] },
  { name: 'nav.agents.1000', targets: ['native', 'wasm-simd', 'wasm'] },
  // nav.crowd.<N>[.off]: N NavAgents crossing the nav field both ways, avoidance on / off; Detour
  // Crowd on the same mesh and agents is the baseline (nav_field.mjs writes the agents first).
  ...NAV_CROWD_BENCHES.map((name) => ({ name, targets: ['native', 'wasm-simd', 'wasm', 'detour'], baseline: 'detour', prepare: prepareNavCrowd })),
  // bridge.*: the TypeScript World's per-call cost over the core (bridge.mjs).
  ...['bridge.get.transform', 'bridge.get.character_controller', 'bridge.update.transform', 'bridge.step.empty', 'bridge.local_pose', 'bridge.model_matrices'].map((name) => ({ name, targets: ['ts'] })),
  // world.scale.<placement>.<N>: per-character cost of a step with N characters. Opt-in
  // (only with --bench world.scale or a member): today a step at N = 10000 takes 10-30 s
  // natively, so the family would make a plain `npm run bench` last most of an hour.
  ...['object', 'hand'].flatMap((placement) =>
    SCALE_SIZES.map((n) => ({ name: `world.scale.${placement}.${n}`, targets: ['native', 'wasm-simd', 'wasm'] })),
  ),
];
// three.js baseline script per bench (default three_ik.mjs); benches with different
// scripts run in separate processes.
const THREE_SCRIPTS = { 'anim.character': 'three_anim.mjs', 'anim.character_unreal': 'three_anim.mjs' };
// Detour (@recast-navigation/core) baseline per bench.
const DETOUR_SCRIPTS = { 'nav.path': 'detour_nav.mjs', ...Object.fromEntries(NAV_CROWD_BENCHES.map((b) => [b, 'detour_crowd.mjs'])) };

const NODE_RUN = [process.execPath, '--no-experimental-fetch'];
const TARGETS = {
  native: { build: buildNative, command: () => [NATIVE_BIN] },
  'wasm-simd': {
    build: () => buildWasm('bench-simd.js', true),
    command: () => [...NODE_RUN, path.join(OUT_DIR, 'bench-simd.js')],
  },
  'wasm-mt': {
    build: () => buildWasm('bench-mt.js', true, 'wasm-mt'),
    command: () => [...NODE_RUN, path.join(OUT_DIR, 'bench-mt.js')],
  },
  wasm: {
    build: () => buildWasm('bench-scalar.js', false),
    command: () => [...NODE_RUN, path.join(OUT_DIR, 'bench-scalar.js')],
  },
  rapier: {
    build: () => checkRapier(false),
    command: () => [process.execPath, path.join(BENCH_DIR, 'rapier_collide.mjs'), '--target', 'rapier'],
  },
  'limber-rapier': {
    build: () => checkRapier(true),
    command: () => [process.execPath, path.join(BENCH_DIR, 'rapier_collide.mjs'), '--target', 'limber-rapier'],
  },
  detour: {
    build: () => checkDetour(),
    command: (bench) => [process.execPath, path.join(BENCH_DIR, DETOUR_SCRIPTS[bench] ?? 'detour_nav.mjs')],
  },
  ts: {
    build: () => checkBridge(),
    command: () => [process.execPath, path.join(BENCH_DIR, 'bridge.mjs')],
  },
  three: {
    // V8 settles a three.js process in one of two steady speeds and keeps it (anim.character,
    // 15 runs per process after 10 warm-up batches: about 27 us per character in some
    // processes, 67 us in others): each timed run gets its own process, so the min over 9 is
    // three.js at its best rather than the luck of 3 processes.
    processPerRun: true,
    build: () => checkThree(),
    command: (bench) => [process.execPath, path.join(BENCH_DIR, THREE_SCRIPTS[bench] ?? 'three_ik.mjs')],
  },
};

// ---- arguments ------------------------------------------------------------------
function parseArgs(argv) {
  const o = { json: false, runs: 9, rounds: 3, iters: 0, benches: [], targets: [], build: true, instructions: false };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const v = argv[i + 1];
    if (a === '--json') o.json = true;
    else if (a === '--no-build') o.build = false;
    else if (a === '--instructions') o.instructions = true;
    else if (a === '--runs' && v !== undefined) (o.runs = Number(v)), ++i;
    else if (a === '--rounds' && v !== undefined) (o.rounds = Number(v)), ++i;
    else if (a === '--iters' && v !== undefined) (o.iters = Number(v)), ++i;
    else if (a === '--bench' && v !== undefined) o.benches.push(v), ++i;
    else if (a === '--target' && v !== undefined) o.targets.push(v), ++i;
    else {
      if (a !== '--help' && a !== '-h') console.error(`bench: unknown argument '${a}'`);
      console.error(
        'usage: node tests/bench/run.mjs [--json] [--runs N>=5] [--rounds R] [--iters N] [--bench NAME]... [--target NAME]... [--no-build] [--instructions]\n' +
          `benches: ${BENCHES.map((b) => `${b.name} (${b.targets.join(', ')})`).join('; ')}`,
      );
      process.exit(a === '--help' || a === '-h' ? 0 : 2);
    }
  }
  if (!Number.isInteger(o.runs) || o.runs < 1) o.runs = 9;
  o.runs = Math.max(MIN_RUNS, o.runs);
  if (!Number.isInteger(o.rounds) || o.rounds < 1) o.rounds = 3;
  o.rounds = Math.min(o.rounds, o.runs);
  if (!Number.isInteger(o.iters) || o.iters < 0) o.iters = 0; // 0 = each bench's default
  for (const b of o.benches) {
    if (!BENCHES.some((x) => selects(b, x.name))) fail(`unknown bench '${b}'`);
  }
  for (const t of o.targets) {
    if (!TARGETS[t]) fail(`unknown target '${t}' (targets: ${Object.keys(TARGETS).join(', ')})`);
  }
  return o;
}

// NAME itself, or a family by dotted prefix: 'world.scale' selects 'world.scale.hand.10'.
function selects(sel, name) {
  return name === sel || name.startsWith(`${sel}.`);
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}

// ---- building -------------------------------------------------------------------
class BuildError extends Error {}

// Runs a build step quietly; its output is shown only when it fails.
function sh(cmd, args, { env, hint } = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, env: env ?? process.env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = [cmd, ...args].join(' ');
  if (r.error?.code === 'ENOENT') {
    throw new BuildError(`'${cmd}' not found. ${hint ?? ''}`.trim());
  }
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new BuildError(`build step failed: ${line}\n${out}`);
  }
}

const SETUP_HINT = 'Run scripts/setup.sh (installs cmake, gcc, emscripten, libcglm-dev and extracts cJSON).';

function buildNative() {
  const env = process.env;
  if (!fs.existsSync(path.join(ROOT, 'build', 'native', 'CMakeCache.txt')) || !fs.existsSync(NATIVE_BIN)) {
    sh('cmake', ['--preset', 'native'], {
      env,
      hint: `${SETUP_HINT} Then: cmake --preset native && cmake --build --preset native -j2`,
    });
  }
  try {
    sh('cmake', ['--build', '--preset', 'native', '-j2', '--target', 'limber_bench'], {
      env,
      hint: `${SETUP_HINT} Then: cmake --build --preset native -j2 --target limber_bench`,
    });
  } catch (e) {
    // No cmake here but a binary from an earlier build: bench that, say so.
    if (!(e instanceof BuildError && e.message.startsWith("'cmake' not found") && fs.existsSync(NATIVE_BIN))) throw e;
    console.error(`bench: cmake not found; using the existing ${path.relative(ROOT, NATIVE_BIN)}, which may be stale`);
  }
}

// The same C as limber_bench over the wasm presets' own core library (build/wasm,
// build/wasm-scalar: CMakeLists.txt's target limber_bench_wasm), so the benches time the
// objects the shipped .wasm is linked from, with their per-file flags.
function buildWasm(outName, simd, threaded = '') {
  if (!fs.existsSync(path.join(CJSON_DIR, 'cJSON.c'))) throw new BuildError(`cJSON missing in ${CJSON_DIR}. ${SETUP_HINT}`);
  const preset = threaded || (simd ? 'wasm' : 'wasm-scalar');
  // bench-mt.js's workers run the bridge's worker script (tests/bench/bench_threads.c).
  if (threaded && !fs.existsSync(path.join(ROOT, 'dist/web/bridge/mt-worker-node.js'))) throw new BuildError('dist/web/bridge/mt-worker-node.js is missing: run node scripts/build.mjs ts');
  fs.mkdirSync(OUT_DIR, { recursive: true });
  // emcc emits CommonJS glue; the repo's package.json says "type": "module".
  fs.writeFileSync(path.join(OUT_DIR, 'package.json'), '{ "type": "commonjs" }\n');
  const env = { ...process.env, NODE_PATH: process.env.NODE_PATH || '/usr/share/nodejs' };
  if (!fs.existsSync(path.join(ROOT, 'build', preset, 'CMakeCache.txt'))) {
    sh('cmake', ['--preset', preset], { env, hint: `${SETUP_HINT} Then: cmake --preset ${preset}` });
  }
  sh('cmake', ['--build', '--preset', preset, '-j2', '--target', 'limber_bench_wasm'], {
    env,
    hint: `${SETUP_HINT} Then: NODE_PATH=/usr/share/nodejs cmake --build --preset ${preset} -j2 --target limber_bench_wasm`,
  });
  if (!fs.existsSync(path.join(OUT_DIR, outName))) throw new BuildError(`${outName} was not built in ${path.relative(ROOT, OUT_DIR)}`);
}

function checkRapier(adapter) {
  if (!fs.existsSync(path.join(ROOT, 'node_modules', '@dimforge', 'rapier3d-compat', 'package.json'))) {
    throw new BuildError('@dimforge/rapier3d-compat is not installed: run npm ci');
  }
  if (adapter && !fs.existsSync(path.join(ROOT, 'dist', 'web', 'rapier', 'index.js'))) {
    throw new BuildError('dist/web/rapier is missing: run node scripts/build.mjs wasm ts');
  }
}

function checkDetour() {
  if (!fs.existsSync(path.join(ROOT, 'node_modules', '@recast-navigation', 'core', 'package.json'))) {
    throw new BuildError('@recast-navigation/core is not installed: run npm ci');
  }
}

function checkBridge() {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'web', 'bridge', 'index.js'))) {
    throw new BuildError('dist/web/bridge is missing: run node scripts/build.mjs wasm ts');
  }
}

function checkThree() {
  if (!fs.existsSync(path.join(ROOT, 'node_modules', 'three', 'examples', 'jsm', 'animation', 'CCDIKSolver.js'))) {
    throw new BuildError('three is not installed: run npm ci');
  }
}

// ---- running --------------------------------------------------------------------
function runTarget(target, benchNames, runs, o) {
  const groups = new Map(); // command -> bench names it runs
  for (const b of benchNames) {
    const key = TARGETS[target].command(b).join('\0');
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  const results = [];
  let ok = true;
  const [processes, each] = TARGETS[target].processPerRun ? [runs, 1] : [1, runs];
  for (const [key, names] of groups) {
    for (let k = 0; k < processes; ++k) {
      const r = runCommand(target, key.split('\0'), names, each, o);
      results.push(...r.results);
      ok &&= r.ok;
    }
  }
  return { results, ok };
}

function runCommand(target, [cmd, ...pre], benchNames, runs, o) {
  const args = [...pre, ...benchNames.flatMap((b) => ['--bench', b]), '--runs', String(runs), ...(o.iters ? ['--iters', String(o.iters)] : [])];
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20, timeout: 30 * 60 * 1000 });
  const results = [];
  for (const line of (r.stdout ?? '').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      results.push(JSON.parse(line));
    } catch {
      /* not ours */
    }
  }
  const problem =
    r.error?.message ?? (r.status !== 0 ? `exit status ${r.status}${r.signal ? ` (${r.signal})` : ''}` : null);
  if (problem) {
    console.error(`bench: target ${target} failed: ${problem}: ${[cmd, ...args].join(' ')}\n${(r.stderr ?? '').trim()}`);
  }
  return { results, ok: !problem && results.length === benchNames.length };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

// Merges one target's per-process results for a bench.
function pool(rs) {
  const samples = rs.flatMap((r) => r.samples);
  const ops = rs.reduce((n, r) => n + r.runs * r.iters, 0);
  return {
    ...rs[0],
    samples,
    runs: samples.length,
    min: Math.min(...samples),
    median: median(samples),
    mean_error: rs.reduce((e, r) => e + r.mean_error * r.runs * r.iters, 0) / ops,
    max_error: Math.max(...rs.map((r) => r.max_error)),
  };
}

const sig = (x) => Number(Number(x).toPrecision(6));
const fmt = (x) => (x >= 100 ? x.toFixed(1) : x >= 10 ? x.toFixed(2) : x.toFixed(3));

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const benches = BENCHES.filter((b) => (o.benches.length ? o.benches.some((x) => selects(x, b.name)) : !b.optIn)).map((b) => ({
    ...b,
    targets: b.targets.filter((t) => !o.targets.length || o.targets.includes(t)),
  }));
  // Inputs some benches read (the nav field's mesh and pairs), written once per invocation.
  for (const b of benches) {
    if (b.prepare && b.targets.length) await b.prepare();
  }
  if (o.instructions) {
    process.exitCode = countInstructions(benches, o);
    return;
  }
  // Targets in first-seen order, each with the benches it runs.
  const plan = new Map();
  for (const b of benches) for (const t of b.targets) plan.set(t, [...(plan.get(t) ?? []), b.name]);

  let status = 0;
  const usable = new Set();
  for (const t of plan.keys()) {
    try {
      if (o.build) TARGETS[t].build();
      usable.add(t);
    } catch (e) {
      if (!(e instanceof BuildError)) throw e;
      console.error(`bench: cannot build target ${t}: ${e.message}`);
      status = 1;
    }
  }

  // Rounds: runs are dealt out as evenly as possible, targets rotate order.
  const pooled = new Map(); // `${bench}|${target}` -> per-process results
  const order = [...plan.keys()].filter((t) => usable.has(t));
  const failed = new Set();
  for (let round = 0; round < o.rounds; ++round) {
    const runs = Math.floor(o.runs / o.rounds) + (round < o.runs % o.rounds ? 1 : 0);
    for (let k = 0; k < order.length; ++k) {
      const t = order[(k + round) % order.length];
      if (failed.has(t)) continue;
      const { results: rs, ok } = runTarget(t, plan.get(t), runs, o);
      if (!ok) {
        status = 1;
        failed.add(t);
      }
      for (const r of rs) {
        const key = `${r.bench}|${t}`;
        pooled.set(key, [...(pooled.get(key) ?? []), r]);
      }
    }
  }
  const results = new Map(); // `${bench}|${target}` -> pooled result
  for (const [key, rs] of pooled) results.set(key, pool(rs));

  const rows = [];
  for (const b of benches) {
    const base = b.baseline ? results.get(`${b.name}|${b.baseline}`) : undefined;
    for (const t of b.targets) {
      const r = results.get(`${b.name}|${t}`);
      if (!r) continue;
      rows.push({ ...r, baseline: base && t !== b.baseline ? b.baseline : '', speedup: base && t !== b.baseline ? base.min / r.min : null });
    }
  }

  writeCsv(rows);
  if (o.json) {
    for (const r of rows) {
      console.log(JSON.stringify({ bench: r.bench, target: r.target, unit: r.unit, min: sig(r.min), median: sig(r.median), runs: r.runs }));
    }
    // The shipped module sizes in the same line shape (one measurement, so runs 1), with the goal.
    for (const s of wasmSizes()) {
      const kib = Number(s.kib.toFixed(1));
      const gzip = Number(s.gzipKib.toFixed(1));
      const brotli = Number(s.brotliKib.toFixed(1));
      console.log(JSON.stringify({ bench: 'size.wasm', target: s.target, unit: 'KiB', min: kib, median: kib, runs: 1 }));
      console.log(JSON.stringify({ bench: 'size.wasm.gzip', target: s.target, unit: 'KiB', min: gzip, median: gzip, runs: 1 }));
      const goal = s.target === 'wasm-simd' ? { limit_bytes: WASM_BROTLI_LIMIT_BYTES, over_limit: s.brotliBytes > WASM_BROTLI_LIMIT_BYTES } : {};
      console.log(JSON.stringify({ bench: 'size.wasm.brotli', target: s.target, unit: 'KiB', min: brotli, median: brotli, runs: 1, ...goal }));
    }
  } else {
    printTable(rows, o);
  }
  process.exitCode = status;
}

// ---- --instructions ------------------------------------------------------------------

// The wasm targets' V8 under callgrind: TurboFan straight away (no Liftoff, no tier-up that
// depends on time), no background threads and V8's predictable mode (no concurrent marking or
// compiling), so the same batch runs the same machine code and the count repeats.
const WASM_COUNT_FLAGS = ['--no-liftoff', '--no-wasm-tier-up', '--single-threaded', '--predictable'];
const COUNT_TARGETS = ['native', 'wasm-simd', 'wasm'];

// Instructions (callgrind's Ir) of one run of `bench` on `target` with batches of `iters`, no
// warm-up, and the operations it ran.
function callgrindRun(target, bench, iters) {
  let command = TARGETS[target].command(bench);
  const tool = ['--tool=callgrind', '--callgrind-out-file=/dev/null'];
  if (target !== 'native') {
    command = [command[0], ...WASM_COUNT_FLAGS, ...command.slice(1)];
    tool.push('--smc-check=all-non-file'); // V8 writes code at run time
  }
  const args = [...tool, ...command, '--bench', bench, '--runs', '1', '--iters', String(iters), '--warmup', '0'];
  const r = spawnSync('valgrind', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20, timeout: 60 * 60 * 1000 });
  if (r.error) throw new BuildError(`valgrind: ${r.error.message} (install the Debian package valgrind)`);
  const collected = /Collected : (\d+)/.exec(r.stderr ?? '');
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('{'));
  if (r.status !== 0 || !collected || !line) throw new BuildError(`valgrind ${bench} [${target}]: exit status ${r.status}: ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`);
  const j = JSON.parse(line);
  return { instructions: Number(collected[1]), ops: j.iters * j.runs, unit: j.unit };
}

function countInstructions(benches, o) {
  const targets = o.targets.length ? COUNT_TARGETS.filter((t) => o.targets.includes(t)) : ['native'];
  if (!targets.length) {
    console.error(`bench: --instructions counts ${COUNT_TARGETS.join(', ')}; none of them was asked for`);
    return 1;
  }
  const usable = [];
  let status = 0;
  for (const t of targets) {
    try {
      if (o.build) TARGETS[t].build();
      usable.push(t);
    } catch (e) {
      if (!(e instanceof BuildError)) throw e;
      console.error(`bench: cannot build target ${t}: ${e.message}`);
      status = 1;
    }
  }
  const rows = [];
  for (const b of benches) {
    if (b.selfTimed) {
      console.error(`bench: ${b.name} times one part of its operation itself; its instructions would be the whole operation's: not counted`);
      continue;
    }
    for (const t of usable.filter((x) => b.targets.includes(x))) {
      try {
        // Two batch sizes: whatever the setup, teardown and compilation cost cancels in the
        // difference. V8 adds some 50k instructions that come and go from run to run (its own
        // housekeeping): larger wasm batches spread them thinner.
        const small = o.iters || (t === 'native' ? 200 : 1000);
        const a = callgrindRun(t, b.name, small);
        const c = callgrindRun(t, b.name, small * 6);
        if (c.ops <= a.ops) throw new BuildError(`${b.name} [${t}]: the larger batch ran no more operations`);
        rows.push({ bench: b.name, target: t, perOp: (c.instructions - a.instructions) / (c.ops - a.ops), ops: c.ops - a.ops });
      } catch (e) {
        if (!(e instanceof BuildError)) throw e;
        console.error(`bench: ${e.message}`);
        status = 1;
      }
    }
  }
  if (o.json) {
    for (const r of rows) {
      const n = Math.round(r.perOp);
      console.log(JSON.stringify({ bench: r.bench, target: r.target, unit: 'instr', min: n, median: n, runs: 1 }));
    }
  } else if (rows.length) {
    console.log('instructions per operation (callgrind; the difference of two batches, no warm-up; wasm: the x86 code V8 makes of it)');
    const w = Math.max(5, ...rows.map((r) => r.bench.length));
    console.log(`${'bench'.padEnd(w)}  ${'target'.padEnd(9)}  ${'instructions/op'.padStart(15)}  ${'ops counted'.padStart(11)}`);
    console.log(`${'-'.repeat(w)}  ${'-'.repeat(9)}  ${'-'.repeat(15)}  ${'-'.repeat(11)}`);
    for (const r of rows) console.log(`${r.bench.padEnd(w)}  ${r.target.padEnd(9)}  ${Math.round(r.perOp).toLocaleString('en-US').padStart(15)}  ${String(r.ops).padStart(11)}`);
  }
  return status;
}

function writeCsv(rows) {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const head = 'bench,target,unit,min,median,runs,iters,mean_error_m,max_error_m,baseline,speedup_vs_baseline,date,node,cpu';
  const date = new Date().toISOString();
  const cpu = `"${(os.cpus()[0]?.model ?? 'unknown').replace(/"/g, "'").trim()}"`;
  const lines = rows.map((r) =>
    [r.bench, r.target, r.unit, sig(r.min), sig(r.median), r.runs, r.iters, sig(r.mean_error), sig(r.max_error), r.baseline, r.speedup === null ? '' : r.speedup.toFixed(2), date, process.version, cpu].join(','),
  );
  fs.writeFileSync(path.join(OUT_DIR, 'results.csv'), `${[head, ...lines].join('\n')}\n`);
}

// world.scale: per-character cost at N = 1000 and 10000 over N = 10, per placement and
// target (mins). 1.0 = the step is linear in the number of characters.
function printScaleRatios(rows) {
  const min = new Map(rows.map((r) => [`${r.bench}|${r.target}`, r.min]));
  const out = [];
  for (const placement of ['object', 'hand']) {
    for (const target of Object.keys(TARGETS)) {
      const base = min.get(`world.scale.${placement}.10|${target}`);
      if (base === undefined) continue;
      const cells = SCALE_SIZES.slice(1).map((n) => {
        const m = min.get(`world.scale.${placement}.${n}|${target}`);
        return m === undefined ? '-' : `${(m / base).toFixed(1)}x`;
      });
      out.push([placement, target, fmt(base), ...cells]);
    }
  }
  if (!out.length) return;
  const header = ['placement', 'target', 'N=10 (us)', ...SCALE_SIZES.slice(1).map((n) => `N=${n} / N=10`)];
  const widths = header.map((h, i) => Math.max(h.length, ...out.map((c) => c[i].length)));
  const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log('');
  console.log('world.scale: cost per character-step relative to N=10 (min; 1.0x = linear in N)');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of out) console.log(line(c));
}

// nav.crowd: per target, what avoidance adds (on / off) and how the cost per agent grows from
// 100 to 1000 agents at the same density (mins of this run).
function printNavCrowdRatios(rows) {
  const min = new Map(rows.map((r) => [`${r.bench}|${r.target}`, r.min]));
  const out = [];
  for (const target of Object.keys(TARGETS)) {
    const m = (b) => min.get(`${b}|${target}`);
    if (m('nav.crowd.100') === undefined && m('nav.crowd.1000') === undefined) continue;
    const ratio = (a, b) => (a === undefined || b === undefined ? '-' : `${(a / b).toFixed(2)}x`);
    const cell = (x) => (x === undefined ? '-' : fmt(x));
    out.push([
      target,
      cell(m('nav.crowd.100')),
      cell(m('nav.crowd.100.off')),
      ratio(m('nav.crowd.100'), m('nav.crowd.100.off')),
      cell(m('nav.crowd.1000')),
      cell(m('nav.crowd.1000.off')),
      ratio(m('nav.crowd.1000'), m('nav.crowd.1000.off')),
      ratio(m('nav.crowd.1000'), m('nav.crowd.100')),
    ]);
  }
  if (!out.length) return;
  const header = ['target', '100 on (us)', '100 off', 'on/off', '1000 on', '1000 off', 'on/off', '1000/100 on'];
  const widths = header.map((h, i) => Math.max(h.length, ...out.map((c) => c[i].length)));
  const line = (cells) => cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log('');
  console.log('nav.crowd: microseconds per agent-step (min), avoidance on / off, and 1000 / 100 agents');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of out) console.log(line(c));
}

// Stage benches and the bench whose operation they split (same data, same run).
const STAGE_OF = {
  'anim.stage.sample_blend': 'anim.character',
  'anim.stage.sample': 'anim.character',
  'anim.stage.blend': 'anim.character',
  'anim.stage.model': 'anim.character',
  'grip.stage.pose': 'grip.hand',
  'grip.stage.wrap': 'grip.hand',
  'grip.stage.arms': 'grip.character',
  'grip.stage.fingers': 'grip.character',
  ...Object.fromEntries(PLAYER_PHASES.map((p) => [`world.player.stage.${p}`, 'world.player'])),
  ...Object.fromEntries(PLAYER_PHASES.map((p) => [`world.npc.1000.stage.${p}`, 'world.npc.1000'])),
  ...Object.fromEntries(CONTROLLER_STAGES.map((st) => [`controller.stage.${st}`, 'controller.move'])),
};

// Each stage's min over its whole bench's min, per target: where the time goes. The separate
// anim.stage.sample and .blend are the jobs the one-pass sample_blend replaces (not part of
// anim.character); the grip.character parts each include the bench's pose restore.
function printStageShares(rows) {
  const min = new Map(rows.map((r) => [`${r.bench}|${r.target}`, r.min]));
  const out = [];
  for (const [stage, whole] of Object.entries(STAGE_OF)) {
    for (const target of Object.keys(TARGETS)) {
      const m = min.get(`${stage}|${target}`);
      const w = min.get(`${whole}|${target}`);
      if (m === undefined || w === undefined) continue;
      out.push([stage, whole, target, fmt(m), fmt(w), `${((100 * m) / w).toFixed(0)}%`]);
    }
  }
  if (!out.length) return;
  const header = ['stage', 'of', 'target', 'stage min (us)', 'whole min (us)', 'share'];
  const widths = header.map((h, i) => Math.max(h.length, ...out.map((c) => c[i].length)));
  const line = (cells) => cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log('');
  console.log('stage split: each stage over the bench it splits (mins of this run)');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of out) console.log(line(c));
}

// The shipped .wasm files (what a game downloads), as built by this invocation's build step,
// against issue 16's size goal. Not a timed bench: a flag in the table and in the JSON.
// The transfer size users pay: limber.wasm brotli-compressed (issue 35 retired the raw-size goal).
// 150 KB read as 150,000 bytes, the stricter of KB and KiB.
const WASM_BROTLI_LIMIT_BYTES = 150000;
function wasmSizes() {
  return [
    ['SIMD build (the default)', 'wasm-simd', path.join(ROOT, 'dist', 'web', 'bridge', 'limber.wasm')],
    ['scalar build', 'wasm', path.join(ROOT, 'dist', 'web', 'bridge', 'limber-scalar.wasm')],
    ['threads build', 'wasm-mt', path.join(ROOT, 'dist', 'web', 'bridge', 'limber-mt.wasm')],
  ]
    .filter(([, , f]) => fs.existsSync(f))
    .map(([what, target, f]) => {
      // What a server sends: gzip and brotli at their highest levels (the shipped file is served
      // compressed; the goal is on the default module's brotli size).
      const bytes = fs.readFileSync(f);
      const gzip = zlib.gzipSync(bytes, { level: 9 }).length;
      const brotli = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      return { what, target, file: f, kib: bytes.length / 1024, gzipKib: gzip / 1024, brotliKib: brotli / 1024, brotliBytes: brotli };
    });
}

function printWasmSizes() {
  const sizes = wasmSizes();
  if (!sizes.length) return;
  console.log('');
  for (const s of sizes) {
    const over = s.brotliBytes - WASM_BROTLI_LIMIT_BYTES;
    const goal = `goal <= ${WASM_BROTLI_LIMIT_BYTES / 1000} KB brotli`;
    const flag = s.target !== 'wasm-simd' ? '' : over > 0 ? `  OVER the ${goal} by ${over} bytes` : `  (${goal}: met, ${-over} bytes to spare)`;
    console.log(`wasm size, ${s.what}: ${s.kib.toFixed(1)} KiB raw, ${s.gzipKib.toFixed(1)} KiB gzip -9, ${s.brotliKib.toFixed(1)} KiB brotli -q 11 (${path.relative(ROOT, s.file)})${flag}`);
  }
}

// collide: queries per second (from the min) and brute force / tree per query, scene and
// target (mins): how much the hierarchies save.
function printCollideRatios(rows) {
  const min = new Map(rows.map((r) => [`${r.bench}|${r.target}`, r.min]));
  const out = [];
  for (const q of COLLIDE_QUERIES) {
    for (const sc of COLLIDE_SCENES) {
      for (const target of Object.keys(TARGETS)) {
        const tree = min.get(`collide.${q}.${sc}|${target}`);
        const brute = min.get(`collide.${q}.${sc}.brute|${target}`);
        if (tree === undefined) continue;
        out.push([`${q}.${sc}`, target, Math.round(1e6 / tree).toLocaleString('en-US'), brute === undefined ? '-' : Math.round(1e6 / brute).toLocaleString('en-US'), brute === undefined ? '-' : `${(brute / tree).toFixed(1)}x`]);
      }
    }
  }
  if (!out.length) return;
  const header = ['collide query', 'target', 'tree q/s', 'brute q/s', 'brute / tree'];
  const widths = header.map((h, i) => Math.max(h.length, ...out.map((c) => c[i].length)));
  const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log('');
  console.log('collide: queries per second (min) and the brute-force baseline of the same run');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of out) console.log(line(c));
}

function printTable(rows, o) {
  const cpu = (os.cpus()[0]?.model ?? 'unknown CPU').trim();
  console.log(`Limber bench — ${cpu}, ${os.cpus().length} threads, node ${process.version}; ${o.runs} runs per target in ${o.rounds} rounds; min and median per op`);
  const header = ['bench', 'target', 'min', 'median', 'unit', 'runs', 'mean err (m)', 'vs baseline'];
  const body = rows.map((r) => [
    r.bench,
    r.target,
    fmt(r.min),
    fmt(r.median),
    r.unit,
    String(r.runs),
    r.mean_error ? r.mean_error.toExponential(1) : '-',
    r.speedup === null ? (rows.some((x) => x.bench === r.bench && x.baseline === r.target) ? '(baseline)' : '') : `${r.speedup.toFixed(1)}x faster than ${r.baseline}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const right = new Set([2, 3, 5]);
  const line = (cells) => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  let prev = '';
  for (const b of body) {
    if (prev && b[0] !== prev) console.log('');
    console.log(line(b));
    prev = b[0];
  }
  printScaleRatios(rows);
  printWasmSizes();
  printCollideRatios(rows);
  printNavCrowdRatios(rows);
  printStageShares(rows);
  const seen = new Set();
  console.log('');
  for (const r of rows) {
    if (r.what && !seen.has(`${r.bench}|${r.what}`)) {
      seen.add(`${r.bench}|${r.what}`);
      const work = r.work ? ` (${sig(r.work_per_op)} ${r.work} per op)` : '';
      console.log(`  ${r.bench} [${r.target}]: ${r.what}${work}`);
    }
  }
  console.log(`CSV: ${path.relative(ROOT, path.join(OUT_DIR, 'results.csv'))}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
