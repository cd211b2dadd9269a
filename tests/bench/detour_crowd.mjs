// Baseline for benches "nav.crowd.<N>" and "nav.crowd.<N>.off": Detour Crowd
// (@recast-navigation/core's Crowd, Detour compiled to WebAssembly) on the same Recast bake of the
// nav field and the same agents as bench_nav.c (tests/bench/nav_field.mjs writes
// build/bench/nav-crowd-<N>.txt; run.mjs first), with the RecastDemo crowd tool's settings
// (radius 0.3 m, 1.4 m/s, acceleration 8 m/s^2, query range 12 radii, path optimisation range 30
// radii, separation weight 2, high-quality adaptive sampling). `.off`: without obstacle avoidance
// and separation (updateFlags: anticipate turns, optimise visibility and topology only).
//
//   node tests/bench/detour_crowd.mjs --bench nav.crowd.100 [--bench ...] [--runs N] [--iters N] [--warmup N]
//
// One operation is one agent's share of crowd.update(1/60); every 30 steps the agents within
// 0.1 m of their target (NavAgent's stoppingDistance in bench_nav.c) are sent back where they came
// from (a position read per agent, as bench_nav.c reads each NavAgent). One JSON line per bench in
// limber_bench's format.
import { Crowd } from '@recast-navigation/core';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { navFieldLevel, readNavCrowd } from './nav_field.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DT = 1 / 60;
const RADIUS = 0.3;
// DT_CROWD_ANTICIPATE_TURNS 1, OBSTACLE_AVOIDANCE 2, SEPARATION 4, OPTIMIZE_VIS 8, OPTIMIZE_TOPO 16
const FLAGS_ON = 1 | 2 | 4 | 8 | 16;
const FLAGS_OFF = 1 | 8 | 16;

function args() {
  const o = { benches: [], runs: 7, iters: 0, warmup: 1 };
  const a = process.argv.slice(2);
  for (let i = 0; i + 1 < a.length; i += 2) {
    if (a[i] === '--bench') o.benches.push(a[i + 1]);
    else if (a[i] === '--runs') o.runs = Number(a[i + 1]);
    else if (a[i] === '--iters') o.iters = Number(a[i + 1]);
    else if (a[i] === '--warmup') o.warmup = Number(a[i + 1]);
  }
  return o;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

/** A crowd of n agents crossing the field, and a function running `steps` updates. */
function crowdOf(detour, n, avoid) {
  const ends = readNavCrowd(n);
  const crowd = new Crowd(detour, { maxAgents: n, maxAgentRadius: 2 * RADIUS });
  const v = (p) => ({ x: p[0], y: p[1], z: p[2] });
  const params = { radius: RADIUS, height: 1.8, maxSpeed: 1.4, maxAcceleration: 8, collisionQueryRange: RADIUS * 12, pathOptimizationRange: RADIUS * 30, separationWeight: 2, obstacleAvoidanceType: 3, updateFlags: avoid ? FLAGS_ON : FLAGS_OFF };
  const agents = ends.map(([start]) => crowd.addAgent(v(start), params));
  const target = ends.map(([, goal]) => goal);
  const back = new Uint8Array(n);
  agents.forEach((a, i) => a.requestMoveTarget(v(target[i])));
  let stepCount = 0;
  const turn = () => {
    for (let i = 0; i < n; i++) {
      const p = agents[i].position();
      if (Math.hypot(p.x - target[i][0], p.z - target[i][2]) > 0.1) continue;
      back[i] ^= 1;
      target[i] = ends[i][back[i] ? 0 : 1];
      agents[i].requestMoveTarget(v(target[i]));
    }
  };
  const run = (steps) => {
    for (let k = 0; k < steps; k++) {
      crowd.update(DT);
      if (++stepCount % 30 === 0) turn();
    }
  };
  return { crowd, run };
}

async function main() {
  const o = args();
  const bridge = await import(pathToFileURL(path.join(ROOT, 'dist', 'web', 'bridge', 'index.js')).href);
  const { detour, data } = await bridge.bakeDetourNavMesh(navFieldLevel());
  for (const bench of o.benches) {
    const m = /^nav\.crowd\.(\d+)(\.off)?$/.exec(bench);
    if (!m) throw new Error(`detour_crowd.mjs: unknown bench '${bench}'`);
    const n = Number(m[1]), avoid = !m[2];
    const steps = Math.max(1, Math.round((o.iters || n * (n >= 1000 ? 30 : 120)) / n));
    const { crowd, run } = crowdOf(detour, n, avoid);
    for (let w = 0; w < o.warmup; w++) run(steps);
    const samples = [];
    for (let r = 0; r < o.runs; r++) {
      const t0 = process.hrtime.bigint();
      run(steps);
      samples.push(Number(process.hrtime.bigint() - t0) / 1e3 / (steps * n));
    }
    crowd.destroy();
    console.log(
      JSON.stringify({
        bench,
        target: 'detour',
        unit: 'us',
        min: Math.min(...samples),
        median: median(samples),
        runs: o.runs,
        iters: steps * n,
        samples,
        mean_error: 0,
        max_error: 0,
        failures: 0,
        what: `Detour Crowd update (@recast-navigation/core, wasm), ${n} agents on the ${data.polygons.length}-polygon nav field, ${avoid ? 'obstacle avoidance + separation' : 'no avoidance or separation'}, per agent`,
      }),
    );
  }
  detour.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
