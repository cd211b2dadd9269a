// The mesh of bench "nav.path": a 40 x 40 m walled field with 400 pillars on a jittered 2 m
// grid, baked with Recast through the bridge (bakeNavMeshData) into
// build/bench/nav-field.navmesh.json (2,000+ polygons), and 1,024 start/goal pairs (polygon
// centroids picked by xorshift32) in build/bench/nav-field.pairs.txt ("x y z x y z" per
// line). The core's bench (bench_nav.c) and Detour's (detour_nav.mjs) read the same files.
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

/** Writes the mesh and the pairs (the bridge must be built: dist/web/bridge). */
export async function prepareNavField() {
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
