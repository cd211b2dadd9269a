// The core's navmesh queries against Detour itself (@recast-navigation/core), on the same
// Recast-baked nav-arena mesh: for 1,000 random start/goal pairs on the mesh, path lengths
// agree within 1 % (cases beyond are printed with both paths, and must stay explained) and
// reachability agrees for every pair. Prints the largest relative difference.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NavMeshQuery } from '@recast-navigation/core';
import { bakeDetourNavMesh, createWorld } from '../../dist/web/bridge/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const level = JSON.parse(readFileSync(join(root, 'assets/levels/nav-arena.json'), 'utf8'));
const committed = JSON.parse(readFileSync(join(root, 'assets/levels/nav-arena.navmesh.json'), 'utf8'));

const PAIRS = 1000;
const TOL = 0.01;

/** xorshift32, the same generator as the C tests. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const length3 = (pts) => {
  let L = 0;
  for (let i = 1; i < pts.length; i++) L += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1], pts[i][2] - pts[i - 1][2]);
  return L;
};

test('nav vs Detour: 1,000 random pairs on nav-arena, path length within 1 %, same reachability', async () => {
  const { data, detour } = await bakeDetourNavMesh(level);
  try {
    // The committed file is this bake (the same float32 vertices, polygons and adjacency).
    assert.deepEqual(committed.polygons, data.polygons);
    assert.deepEqual(committed.neighbours, data.neighbours);
    assert.equal(committed.vertices.length, data.vertices.length);
    assert.ok(committed.vertices.every((v, i) => v.every((c, k) => Math.fround(c) === data.vertices[i][k])), 'committed vertices are the baked float32 values');
    const world = await createWorld();
    const mesh = world.nav.addMesh(JSON.stringify(committed), 'arena');
    const info = world.nav.info(mesh);
    const query = new NavMeshQuery(detour);
    const [lo, hi] = info.bounds;
    const rand = rng(20261202);
    const onMesh = () => world.nav.nearest(mesh, [lo[0] + (hi[0] - lo[0]) * rand(), lo[1] + (hi[1] - lo[1]) * rand(), lo[2] + (hi[2] - lo[2]) * rand()]);
    const he = { x: 0.5, y: 1, z: 0.5 };
    let maxRel = 0, maxAt = -1, beyond = 0, reachAgree = 0, partial = 0, sumLen = 0, same = 0;
    const worst = [];
    for (let i = 0; i < PAIRS; i++) {
      const a = onMesh(), b = onMesh();
      const ours = world.nav.findPath(mesh, a.position, b.position, { maxPoints: 512 });
      const s = { x: a.position[0], y: a.position[1], z: a.position[2] }, e = { x: b.position[0], y: b.position[1], z: b.position[2] };
      const cp = query.computePath(s, e, { halfExtents: he, maxPathPolys: 1024, maxStraightPathPoints: 512 });
      assert.ok(cp.success, `pair ${i}: Detour computePath failed (${cp.error?.name})`);
      const theirPts = cp.path.map((p) => [p.x, p.y, p.z]);
      const theirs = length3(theirPts);
      // Reachability from Detour's own findPath: the corridor ends on the goal's polygon.
      const sr = query.findNearestPoly(s, { halfExtents: he }), er = query.findNearestPoly(e, { halfExtents: he });
      const fp = query.findPath(sr.nearestRef, er.nearestRef, s, e, { maxPathPolys: 1024 });
      const theirReach = fp.polys.get(fp.polys.size - 1) === er.nearestRef;
      fp.polys.destroy();
      const ourReach = ours.status === 'Complete';
      if (theirReach === ourReach) reachAgree++;
      else console.log(`pair ${i}: reachability differs: core ${ours.status}, Detour ${theirReach ? 'Complete' : 'Partial'}`);
      if (!ourReach) partial++;
      sumLen += theirs;
      if (ours.points.length === theirPts.length && ours.points.every((p, k) => p.every((x, c) => Math.abs(x - theirPts[k][c]) < 1e-5))) same++;
      const rel = Math.abs(ours.length - theirs) / Math.max(theirs, 1e-3);
      if (rel > maxRel) (maxRel = rel), (maxAt = i);
      if (rel > TOL && Math.abs(ours.length - theirs) > 1e-3) {
        beyond++;
        worst.push({ i, a: a.position, b: b.position, ours: ours.length, theirs, oursCorners: ours.points, theirCorners: theirPts });
      }
    }
    query.destroy();
    console.log(`nav vs Detour on nav-arena (${info.polygonCount} polygons): ${PAIRS} pairs, reachability agrees ${reachAgree}/${PAIRS} (${partial} unreachable), max relative length difference ${(maxRel * 100).toExponential(2)} % (pair ${maxAt}), mean path ${(sumLen / PAIRS).toFixed(3)} m, identical corner lists ${same}/${PAIRS}, ${beyond} beyond 1 %`);
    for (const w of worst) console.log(`  pair ${w.i}: core ${w.ours.toFixed(4)} m (${w.oursCorners.length} corners) vs Detour ${w.theirs.toFixed(4)} m (${w.theirCorners.length} corners) from [${w.a.map((x) => x.toFixed(3))}] to [${w.b.map((x) => x.toFixed(3))}]`);
    assert.equal(reachAgree, PAIRS);
    assert.equal(beyond, 0, 'path lengths beyond 1 % (listed above)');
    world.destroy();
  } finally {
    detour.destroy();
  }
});
