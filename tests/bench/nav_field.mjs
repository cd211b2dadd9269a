// The mesh of bench "nav.path": a 40 x 40 m walled field with 400 pillars on a jittered 2 m
// grid, baked with Recast through the bridge (bakeNavMeshData) into
// build/bench/nav-field.navmesh.json (2,000+ polygons), and 1,024 start/goal pairs (polygon
// centroids picked by xorshift32) in build/bench/nav-field.pairs.txt ("x y z x y z" per
// line). The core's bench (bench_nav.c) and Detour's (detour_nav.mjs) read the same files.
//
// The crowds of benches "nav.crowd.<N>" (N = 100, 1000) on the same field: N agents at the same
// density (one per 1.5 m^2 of floor: a square of side 39 sqrt(N / 1000) m round the centre),
// starts picked by xorshift32 on the mesh at least 0.7 m apart, each agent's goal 8 m east or
// west of its start (every other agent each way, so two flows cross everywhere and a path is as
// long for N = 100 as for 1000); build/bench/nav-crowd-<N>.txt ("x y z x y z" per agent).
// bench_nav.c and detour_crowd.mjs read the same files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NAV_FIELD_MESH = path.join(ROOT, 'build', 'bench', 'nav-field.navmesh.json');
export const NAV_FIELD_PAIRS = path.join(ROOT, 'build', 'bench', 'nav-field.pairs.txt');
const PAIRS = 1024;

function xorshift(seed) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

/** The level: box pieces as in assets/levels/*.json. */
export function navFieldLevel() {
  const pieces = [{ name: 'floor', center: [0, -0.05, 0], size: [40, 0.1, 40] }];
  for (const [x, z, sx, sz] of [[0, 20.1, 40.4, 0.2], [0, -20.1, 40.4, 0.2], [20.1, 0, 0.2, 40], [-20.1, 0, 0.2, 40]]) pieces.push({ name: 'wall', center: [x, 1, z], size: [sx, 2, sz] });
  const next = xorshift(0x5eed);
  for (let i = 0; i < 20; i++) {
    for (let j = 0; j < 20; j++) {
      const jx = ((next() % 1000) / 1000 - 0.5) * 0.8, jz = ((next() % 1000) / 1000 - 0.5) * 0.8;
      pieces.push({ name: `pillar_${i}_${j}`, center: [-19 + 2 * i + jx, 1, -19 + 2 * j + jz], size: [0.6, 2, 0.6] });
    }
  }
  return { name: 'nav-field', agentRadius: 0.3, pieces };
}

/** Writes the mesh and the pairs (the bridge must be built: dist/web/bridge), once per process. */
let fieldOnce = null;
export function prepareNavField() {
  fieldOnce ??= writeNavField();
  return fieldOnce;
}

async function writeNavField() {
  const bridge = await import(pathToFileURL(path.join(ROOT, 'dist', 'web', 'bridge', 'index.js')).href);
  const data = await bridge.bakeNavMeshData(navFieldLevel());
  const next = xorshift(20261202);
  const centroid = (p) => {
    const c = [0, 0, 0];
    for (const v of data.polygons[p]) for (let k = 0; k < 3; k++) c[k] += data.vertices[v][k] / data.polygons[p].length;
    return c.map((x) => Math.fround(x));
  };
  const lines = [];
  for (let i = 0; i < PAIRS; i++) lines.push([...centroid(next() % data.polygons.length), ...centroid(next() % data.polygons.length)].join(' '));
  fs.mkdirSync(path.dirname(NAV_FIELD_MESH), { recursive: true });
  fs.writeFileSync(NAV_FIELD_MESH, JSON.stringify(data));
  fs.writeFileSync(NAV_FIELD_PAIRS, `${lines.join('\n')}\n`);
  return { polygons: data.polygons.length, pairs: PAIRS };
}

export const NAV_CROWD_SIZES = [100, 1000];
export const navCrowdFile = (n) => path.join(ROOT, 'build', 'bench', `nav-crowd-${n}.txt`);

/** Writes build/bench/nav-crowd-<N>.txt for every N (and the field's mesh), once per process. */
let crowdOnce = null;
export function prepareNavCrowd() {
  crowdOnce ??= writeNavCrowd();
  return crowdOnce;
}

async function writeNavCrowd() {
  await prepareNavField();
  const bridge = await import(pathToFileURL(path.join(ROOT, 'dist', 'web', 'bridge', 'index.js')).href);
  const world = await bridge.createWorld();
  const mesh = world.nav.addMesh(fs.readFileSync(NAV_FIELD_MESH, 'utf8'), 'field');
  const onMesh = (x, z) => {
    const p = world.nav.nearest(mesh, [x, 0, z]).position;
    return Math.hypot(p[0] - x, p[2] - z) < 0.01 ? p : null;
  };
  for (const n of NAV_CROWD_SIZES) {
    const half = 19.5 * Math.sqrt(n / 1000);
    const next = xorshift(0xc40d + n);
    const starts = [], lines = [];
    while (starts.length < n) {
      const x = ((next() % 100000) / 100000 - 0.5) * 2 * half, z = ((next() % 100000) / 100000 - 0.5) * 2 * half;
      // every other agent east, the rest west, 8 m (turned back at the region's edge)
      const dx = (starts.length % 2 ? -8 : 8) * (Math.abs(x + (starts.length % 2 ? -8 : 8)) > half ? -1 : 1);
      const a = onMesh(x, z), b = a && onMesh(x + dx, z);
      if (!a || !b || starts.some((s) => Math.hypot(s[0] - a[0], s[2] - a[2]) < 0.7)) continue;
      starts.push(a);
      lines.push([...a, ...b].map((v) => Math.fround(v)).join(' '));
    }
    fs.writeFileSync(navCrowdFile(n), `${lines.join('\n')}\n`);
  }
  world.destroy();
}

/** The crowd of N agents as [[start, goal], ...]. */
export function readNavCrowd(n) {
  return fs
    .readFileSync(navCrowdFile(n), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const v = l.split(' ').map(Number);
      return [v.slice(0, 3), v.slice(3, 6)];
    });
}

/** The pairs as [[start, goal], ...]. */
export function readNavFieldPairs() {
  return fs
    .readFileSync(NAV_FIELD_PAIRS, 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const v = l.split(' ').map(Number);
      return [v.slice(0, 3), v.slice(3, 6)];
    });
}
