// Baseline for bench "nav.path": Detour's NavMeshQuery.computePath (@recast-navigation/core,
// Detour compiled to WebAssembly) on the same Recast bake of the nav field and the same
// start/goal pairs as bench_nav.c (tests/bench/nav_field.mjs writes both; run.mjs first).
//
//   node tests/bench/detour_nav.mjs [--bench nav.path] [--runs N] [--iters N] [--warmup N]
//
// One operation: computePath(start, goal) (nearest polygons, A*, string pulling) with room
// for 4,096 polygons and points, its corners read back into JS. Prints one JSON line in
// limber_bench's format.
import { NavMeshQuery } from '@recast-navigation/core';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { navFieldLevel, readNavFieldPairs } from './nav_field.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? Number(process.argv[i + 1]) : def;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

async function main() {
  const bridge = await import(pathToFileURL(path.join(ROOT, 'dist', 'web', 'bridge', 'index.js')).href);
  const { detour, data } = await bridge.bakeDetourNavMesh(navFieldLevel());
  const query = new NavMeshQuery(detour);
  const pairs = readNavFieldPairs().map(([a, b]) => [{ x: a[0], y: a[1], z: a[2] }, { x: b[0], y: b[1], z: b[2] }]);
  const opts = { halfExtents: { x: 0.5, y: 1, z: 0.5 }, maxPathPolys: 4096, maxStraightPathPoints: 4096 };
  let k = 0, failures = 0, corners = 0;
  const run = (iters) => {
    for (let i = 0; i < iters; i++) {
      const [a, b] = pairs[k];
      k = (k + 1) % pairs.length;
      const r = query.computePath(a, b, opts);
      if (!r.success) failures++;
      corners += r.path.length;
    }
  };
  const runs = arg('--runs', 7), iters = arg('--iters', 2000), warmup = arg('--warmup', 1);
  for (let w = 0; w < warmup; w++) run(iters);
  failures = 0;
  corners = 0;
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    run(iters);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e3 / iters);
  }
  query.destroy();
  detour.destroy();
  console.log(
    JSON.stringify({
      bench: 'nav.path',
      target: 'detour',
      unit: 'us',
      min: Math.min(...samples),
      median: median(samples),
      runs,
      iters,
      samples,
      mean_error: 0,
      max_error: 0,
      failures,
      what: `Detour NavMeshQuery.computePath (@recast-navigation/core, wasm) on the ${data.polygons.length}-polygon nav field`,
      work: 'corners',
      work_per_op: corners / (runs * iters),
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
