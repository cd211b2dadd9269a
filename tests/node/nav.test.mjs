// The navmesh bridge (web/bridge/nav.ts) over the wasm core: the committed Recast-baked
// navmeshes load, a run-time bake gives the same mesh and answers, nav-arena's destinations
// are reachable (the ramp, the doors, the gap) while the slit is not, and bad meshes and
// arguments are refused with a LimberError that names them, leaving the world unchanged.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useRecast, bakeNavMeshData, createWorld, LimberError, levelTriangles } from '../../dist/web/bridge/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (rel) => readFileSync(join(root, rel), 'utf8');
const LEVELS = ['corridor', 'vault-course', 'nav-arena'];
const arena = JSON.parse(read('assets/levels/nav-arena.json'));

const throwsCode = (fn, code, re) =>
  assert.throws(fn, (e) => {
    assert.ok(e instanceof LimberError, `not a LimberError: ${e}`);
    assert.equal(e.code, code, e.message);
    if (re) assert.match(e.message, re);
    return true;
  });

test('nav: every level navmesh file loads; counts as baked', async () => {
  const world = await createWorld();
  for (const name of LEVELS) {
    const text = read(`assets/levels/${name}.navmesh.json`);
    const json = JSON.parse(text);
    const mesh = world.nav.addMesh(text, name);
    const info = world.nav.info(mesh);
    assert.equal(info.polygonCount, json.polygons.length);
    assert.equal(info.vertexCount, json.vertices.length);
    assert.equal(world.nav.find(name), mesh);
    console.log(`nav: ${name}.navmesh.json: ${info.polygonCount} polygons, ${info.vertexCount} vertices, ${info.portalCount / 2} portals`);
  }
  world.destroy();
});

test('nav: nav-arena destinations reachable from the spawn; the platform by the ramp; the slit blocks; an obstacle top is unreachable', async () => {
  const world = await createWorld();
  const mesh = world.nav.addMesh(read('assets/levels/nav-arena.navmesh.json'), 'arena');
  for (const d of arena.destinations) {
    const p = world.nav.findPath(mesh, arena.spawn.position, d.position);
    const straight = Math.hypot(d.position[0] - arena.spawn.position[0], d.position[2] - arena.spawn.position[2]);
    console.log(`nav-arena: spawn -> ${d.name}: ${p.status}, ${p.length.toFixed(3)} m (straight ${straight.toFixed(3)} m), ${p.cornerCount} corners over ${p.polygonCount} polygons`);
    assert.equal(p.status, 'Complete', d.name);
    assert.ok(p.length >= straight - 1e-4);
    assert.ok(Math.hypot(p.end.position[0] - d.position[0], p.end.position[2] - d.position[2]) < 1e-4, `${d.name}: ends at the goal`);
  }
  const plat = arena.destinations.find((d) => d.name === 'platform');
  const up = world.nav.findPath(mesh, arena.spawn.position, plat.position);
  assert.ok(Math.abs(up.end.position[1] - 1.1) < 0.05, `platform end height ${up.end.position[1]}`);
  // The ramp is the way up: the path passes its foot (x in [7, 9], z near -2).
  assert.ok(up.points.some((q) => q[0] > 6.5 && q[2] > -3 && q[2] < 0), 'through the ramp');
  // The slit (0.5 m between two boxes, agent radius 0.35): straight across is walled off.
  const a = world.nav.nearest(mesh, [3.25, 0, -1.2]);
  const b = [3.25, 0.1, -4.8];
  const ray = world.nav.raycast(mesh, a, b);
  assert.ok(ray.hit && ray.t < 0.2, `ray across the slit stops at t = ${ray.t}`);
  assert.ok(Math.abs(Math.hypot(ray.normal[0], ray.normal[2]) - 1) < 1e-5);
  const around = world.nav.findPath(mesh, a.position, b);
  console.log(`nav-arena: across the slit ${around.length.toFixed(3)} m around the boxes (straight 3.6 m); raycast stops at t = ${ray.t.toFixed(3)}`);
  assert.equal(around.status, 'Complete');
  assert.ok(around.length > 3.6 + 1.0);
  // Sliding along the box: a move into it ends on the wall, on the mesh.
  const moved = world.nav.moveAlongSurface(mesh, a, b);
  assert.ok(Math.abs(moved.position[2] - ray.position[2]) < 0.05 && moved.position[2] > -2);
  // On top of obstacle_box_01 (a walkable island): a partial path to the nearest reachable point.
  const island = world.nav.findPath(mesh, arena.spawn.position, [2, 1.1, -3]);
  console.log(`nav-arena: goal on obstacle_box_01: ${island.status}, ends at [${island.end.position.map((x) => x.toFixed(3))}], ${island.length.toFixed(3)} m`);
  assert.equal(island.status, 'Partial');
  assert.ok(island.end.position[1] < 0.5);
  world.destroy();
});

test('nav: a run-time bake (bakeNavMesh) gives the committed mesh and the same answers', async () => {
  const world = await createWorld();
  const baked = await world.nav.bake(arena);
  const file = world.nav.addMesh(read('assets/levels/nav-arena.navmesh.json'), 'file');
  assert.deepEqual(world.nav.info(baked), world.nav.info(file));
  for (const d of arena.destinations) {
    const p = world.nav.findPath(baked, arena.spawn.position, d.position);
    const q = world.nav.findPath(file, arena.spawn.position, d.position);
    assert.deepEqual(p, q, d.name);
  }
  // Raw triangles work too (the level's boxes as triangles).
  const tris = levelTriangles(arena);
  const data = await bakeNavMeshData({ name: 'raw', positions: tris.positions, indices: tris.indices }, { agentRadius: 0.35 });
  assert.equal(data.polygons.length, world.nav.info(file).polygonCount);
  world.destroy();
});

test('nav: bad meshes are refused with the polygon named; the world keeps nothing', async () => {
  const world = await createWorld();
  const good = JSON.parse(read('assets/levels/nav-arena.navmesh.json'));
  const spoil = (fn) => {
    const m = structuredClone(good);
    fn(m);
    return m;
  };
  const nb = good.neighbours.findIndex((n) => n.some((x) => x >= 0));
  const k = good.neighbours[nb].findIndex((x) => x >= 0);
  const cases = [
    ['NaN vertex', spoil((m) => (m.vertices[3][0] = NaN)), 'LB_ERR_NOT_FINITE', /vertex 3/],
    ['index out of range', spoil((m) => (m.polygons[2][1] = 100000)), 'LB_ERR_OUT_OF_RANGE', /polygon 2 vertex 1/],
    ['asymmetric adjacency', spoil((m) => (m.neighbours[nb][k] = -1)), 'LB_ERR_INVALID_ARGUMENT', /not symmetric/],
    ['non-convex', spoil((m) => m.polygons[0].reverse()), 'LB_ERR_DEGENERATE', /polygon 0/],
    ['neighbour out of range', spoil((m) => (m.neighbours[0][0] = 9999)), 'LB_ERR_OUT_OF_RANGE', /neighbour 9999/],
  ];
  for (const [what, mesh, code, re] of cases) {
    throwsCode(() => world.nav.addMesh(mesh, 'bad'), code, re);
    if (!what.startsWith('NaN')) throwsCode(() => world.nav.addMesh(JSON.stringify(mesh), 'bad'), code, re);
    assert.equal(world.nav.find('bad'), 0, what);
  }
  throwsCode(() => world.nav.addMesh('{"format": "limber-navmesh"', 'bad'), 'LB_ERR_PARSE');
  throwsCode(() => world.nav.addMesh({ format: 'other', version: 1 }, 'bad'), 'LB_ERR_PARSE', /mesh\.format/);
  throwsCode(() => world.nav.addMesh(42, 'bad'), 'LB_ERR_INVALID_ARGUMENT');
  // Nothing was kept: the first mesh added now gets handle 1.
  assert.equal(world.nav.addMesh(good, 'ok'), 1);
  world.destroy();
});

test('nav: query and bake arguments are checked', async () => {
  const world = await createWorld();
  const mesh = world.nav.addMesh(read('assets/levels/nav-arena.navmesh.json'), 'arena');
  throwsCode(() => world.nav.findPath(7, [0, 0, 0], [1, 0, 1]), 'LB_ERR_INVALID_ARGUMENT', /navmesh 7 does not exist/);
  throwsCode(() => world.nav.findPath(1.5, [0, 0, 0], [1, 0, 1]), 'LB_ERR_INVALID_ARGUMENT', /mesh/);
  throwsCode(() => world.nav.findPath(mesh, [0, NaN, 0], [1, 0, 1]), 'LB_ERR_NOT_FINITE', /start\[1\]/);
  throwsCode(() => world.nav.findPath(mesh, [0, 0], [1, 0, 1]), 'LB_ERR_INVALID_ARGUMENT', /start/);
  throwsCode(() => world.nav.findPath(mesh, [0, 0, 0], [1, 0, 1], { maxPoints: -1 }), 'LB_ERR_OUT_OF_RANGE');
  throwsCode(() => world.nav.nearest(mesh, 'here'), 'LB_ERR_INVALID_ARGUMENT');
  throwsCode(() => world.nav.moveAlongSurface(mesh, { position: [0, 0, 0], polygon: 100000 }, [1, 0, 1]), 'LB_ERR_OUT_OF_RANGE', /polygon 100000/);
  throwsCode(() => world.nav.raycast(mesh, [0, 0, 0], [1, 0, 1]), 'LB_ERR_INVALID_ARGUMENT', /from/);
  await assert.rejects(world.nav.bake(arena, { cellSize: 0 }), (e) => e.code === 'LB_ERR_OUT_OF_RANGE' && /cellSize/.test(e.message));
  await assert.rejects(world.nav.bake(arena, { agentRadius: NaN }), (e) => e.code === 'LB_ERR_NOT_FINITE');
  await assert.rejects(world.nav.bake(arena, { cellsize: 0.1 }), (e) => /not a bake setting/.test(e.message));
  await assert.rejects(world.nav.bake({ pieces: [{ center: [0, 0, 0], size: [1, -1, 1] }] }), (e) => /pieces\[0\]\.size/.test(e.message));
  // useRecast (the browser's way to hand over the Recast modules) checks what it gets, and works.
  assert.throws(() => useRecast({ core: {}, generators: {} }), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT' && /modules\.core/.test(e.message));
  useRecast({ core: await import('@recast-navigation/core'), generators: await import('@recast-navigation/generators') });
  assert.equal(world.nav.info(await world.nav.bake(arena)).polygonCount, world.nav.info(mesh).polygonCount);
  // Paths cut at maxPoints still report the whole length.
  const full = world.nav.findPath(mesh, arena.spawn.position, arena.destinations[0].position);
  const cut = world.nav.findPath(mesh, arena.spawn.position, arena.destinations[0].position, { maxPoints: 1 });
  assert.equal(cut.points.length, 1);
  assert.equal(cut.cornerCount, full.cornerCount);
  assert.equal(cut.length, full.length);
  world.destroy();
});
