// world.loadLevel / world.loadProp: a level from a path, a file: URL, bytes or an object, with
// the default layers, seen by the shipped systems with no configuration (a default
// EnvironmentInteraction touches its walls, a default Vault vaults its crates, the
// CharacterController stands on its floor); navmesh bakes through world.nav; a prop from
// assets/props held two-handed (world.grip.placeTwoHanded); a glTF prop; hostile input that
// throws a LimberError naming the function and the field and changes nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CharacterController, Collider, createWorld, EnvironmentInteraction, GripHolder, GripProfile, GripSurface, Level, LimberError, Prop, Transform, Vault } from '../../dist/web/bridge/index.js';
import { GltfBuilder, TARGET } from '../../assets/generate/gltf-writer.mjs';

const DT = 1 / 60;

function sceneWithout(path, edit) {
  const scene = JSON.parse(readFileSync(path, 'utf8'));
  delete scene.level;
  edit?.(scene);
  return scene;
}

async function loadHero(world, scene) {
  const files = Object.fromEntries(world.sceneFiles(scene).map((p) => [p, readFileSync(p)]));
  return world.loadScene(scene, { files });
}

test('loadLevel(path to a .glb), default layers: walls on layers 0 and 1, the floor on 0; a default EnvironmentInteraction rests a hand on them', async () => {
  const world = await createWorld();
  const level = await world.loadLevel('assets/levels/corridor.glb');
  assert.ok(level instanceof Level);
  assert.equal(level.name, 'corridor');
  assert.equal(level.walls.length, 11);
  assert.equal(level.floors.length, 1);
  assert.equal(level.meshes.length, 12, 'one collision mesh per node');
  assert.equal(level.navMesh, undefined);
  for (const w of level.walls) assert.equal(world.get(w, Collider).layer, 3);
  assert.equal(world.get(level.floors[0], Collider).layer, 1);
  assert.equal(world.get(level.entity('wall_left_01'), Collider).shape, 'Mesh');
  // the corridor scene's walker, its EnvironmentInteraction with the default interactableLayers
  const scene = await loadHero(world, sceneWithout('assets/scenes/corridor.json', (s) => delete s.entities[0].components.EnvironmentInteraction.interactableLayers));
  const hero = scene.entity('hero');
  const handOffset = world.get(hero, EnvironmentInteraction).handOffset;
  const states = [];
  let touching = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < 600; i++) {
    scene.step(DT);
    const d = world.get(hero, EnvironmentInteraction);
    if (states.at(-1) !== d.state) states.push(d.state);
    if (d.state !== 'Touch' || Math.max(d.leftWeight, d.rightWeight) < 1) continue;
    touching++;
    assert.ok(level.walls.includes(d.wall), 'the wall touched is one of the level\'s walls');
    lo = Math.min(lo, d.palmDistance);
    hi = Math.max(hi, d.palmDistance);
  }
  console.log(`# corridor.glb, default layers: ${states.join(' → ')}; ${touching} of 600 steps touching at full weight, palm ${(lo * 1000).toFixed(2)}..${(hi * 1000).toFixed(2)} mm from the wall (handOffset ${(handOffset * 1000).toFixed(1)} mm)`);
  assert.deepEqual(states.slice(0, 5), ['Search', 'Approach', 'Rise', 'Touch', 'Reset']);
  assert.ok(touching > 150, `${touching} steps touching`);
  // the palm rests handOffset off the wall face (measured 14.36..14.98 mm for 15 mm), within 1 mm
  assert.ok(Math.abs(lo - handOffset) <= 1e-3 && Math.abs(hi - handOffset) <= 1e-3, `palm ${lo}..${hi} m, handOffset ${handOffset} m`);
});

test('loadLevel(file: URL of a .json), default layers: a default Vault vaults the crates (state sequence), the controller stands on the floor', async () => {
  const world = await createWorld();
  const level = await world.loadLevel(pathToFileURL('assets/levels/vault-course.json'));
  assert.deepEqual([...level.byKind].map(([k, v]) => [k, v.length]), [['floor', 1], ['obstacle', 7]]);
  assert.equal(world.get(level.entity('obstacle_low_02'), Collider).layer, 1);
  const scene = await loadHero(world, sceneWithout('assets/scenes/vault-course.json', (s) => delete s.entities[0].components.Vault.layerMask));
  const hero = scene.entity('hero');
  assert.equal(world.get(hero, Vault).layerMask, 0xffffff, 'the default');
  const states = [];
  const outcomes = [];
  let prev = world.get(hero, Vault);
  let grounded = 0;
  let feet = 0;
  for (let i = 0; i < 1000; i++) {
    scene.step(DT);
    const v = world.get(hero, Vault);
    if (states.at(-1) !== v.state) states.push(v.state);
    if (v.vaults + v.refusals !== prev.vaults + prev.refusals) outcomes.push(`${v.obstacleClass}:${v.refusal}`);
    prev = v;
    const onFloor = world.get(hero, CharacterController).grounded && v.state === 'Idle';
    if (i < 60) {
      assert.ok(onFloor, `step ${i}: standing on the level's floor before the first obstacle`);
      feet = Math.max(feet, Math.abs(world.get(hero, Transform).position[1]));
    }
    if (onFloor) grounded++;
  }
  console.log(`# vault-course.json by file: URL: ${outcomes.join(', ')}; states ${states.slice(0, 5).join(' → ')} ...; grounded and not vaulting ${grounded} of 1000 steps (the rest vaulting); the first second's feet at most ${(feet * 1000).toFixed(2)} mm off the floor top`);
  assert.deepEqual(states, ['Idle', ...Array(4).fill(['Vaulting', 'Over', 'Landing', 'Idle']).flat()]);
  assert.deepEqual(outcomes, ['StepOver:NotVaultable', 'Vault:None', 'Vault:None', 'Vault:None', 'Vault:None', 'TooTall:NotVaultable', 'Mantle:NotVaultable']);
  assert.ok(grounded > 650, `grounded ${grounded} steps`);
  const skin = world.get(hero, CharacterController).skinWidth;
  assert.ok(feet <= skin + 1e-4, `feet ${feet} m above the floor top (y 0): the controller's skin is ${skin} m`);
});

test('loadLevel(object | bytes, { navMesh: \'bake\' }): the JSON bake is the shipped navmesh; the .glb bake (meshes read back) finds the same paths within 2 %', async () => {
  const world = await createWorld();
  const ref = JSON.parse(readFileSync('assets/levels/nav-arena.navmesh.json', 'utf8'));
  const a = await world.loadLevel(JSON.parse(readFileSync('assets/levels/nav-arena.json', 'utf8')), { navMesh: 'bake' });
  const b = await world.loadLevel(readFileSync('assets/levels/nav-arena.glb'), { navMesh: 'bake', name: 'arena-glb' });
  const ia = world.nav.info(a.navMesh);
  const ib = world.nav.info(b.navMesh);
  assert.equal(ia.vertexCount, ref.vertices.length);
  assert.equal(ia.polygonCount, ref.polygons.length);
  assert.equal(world.nav.find('arena-glb'), b.navMesh);
  const from = [0, 0, -8];
  const to = [7.5, 0, 7.5];
  const pa = world.nav.findPath(a.navMesh, from, to);
  const pb = world.nav.findPath(b.navMesh, from, to);
  console.log(`# nav-arena bake: .json ${ia.polygonCount} polygons (shipped ${ref.polygons.length}), .glb ${ib.polygonCount}; path ${pa.length.toFixed(3)} m vs ${pb.length.toFixed(3)} m`);
  assert.equal(pa.status, 'Complete');
  assert.equal(pb.status, 'Complete');
  assert.ok(Math.abs(pa.length - pb.length) / pa.length < 0.02, `${pa.length} vs ${pb.length}`);
  // a given navmesh is added as it is
  const c = await world.loadLevel(JSON.parse(readFileSync('assets/levels/nav-arena.json', 'utf8')), { navMesh: ref, layers: { wall: 2, floor: 1 } });
  assert.equal(world.nav.info(c.navMesh).polygonCount, ref.polygons.length);
  assert.equal(world.get(c.walls[0], Collider).layer, 2, 'layers: { wall } overrides');
  const n = world.entityCount;
  c.destroy();
  assert.equal(world.entityCount, n - c.entities.size);
});

/** The locomotion scene's walking mannequin (glTF, idle/walk/run). */
async function walker(world) {
  const loco = JSON.parse(readFileSync('assets/scenes/locomotion.json', 'utf8'));
  delete loco.timeline;
  return loadHero(world, loco);
}

test('loadProp(assets/props/rifle.json): held two-handed (placeTwoHanded) through a walk, both palms within 5 mm', async () => {
  const world = await createWorld();
  const scene = await walker(world);
  const hero = scene.entity('hero');
  const rifle = await world.loadProp('assets/props/rifle.json', { position: [0.2, 1.2, 0.3] });
  assert.ok(rifle instanceof Prop);
  assert.equal(rifle.name, 'rifle');
  assert.equal(rifle.twoHanded, true);
  assert.equal(rifle.surfaces.length, 6); // grip, handguard, receiver, stock, barrel, magazine
  assert.equal(rifle.anchors.main, rifle.entities.get('rifle.mainAnchor'));
  assert.equal(rifle.anchors.support, rifle.entities.get('rifle.supportAnchor'));
  assert.deepEqual(world.get(rifle.entity, Transform).position, [0.2, 1.2, 0.3].map(Math.fround));
  world.insert(hero, GripHolder, { held: rifle.entity, blendSeconds: 0.25 });
  scene.step(DT);
  const placed = world.grip.placeTwoHanded(hero);
  world.anim.setParam(hero, 'MoveSpeed', 1.4);
  let main = 0;
  let support = 0;
  for (let i = 0; i < 150; i++) {
    scene.step(DT);
    if (i < 30) continue; // the grip and the walk blending in
    const g = world.get(hero, GripHolder);
    main = Math.max(main, g.mainDistance);
    support = Math.max(support, g.supportDistance);
  }
  console.log(`# rifle.json by loadProp, walking: main palm ${(main * 1000).toFixed(2)} mm, support palm ${(support * 1000).toFixed(2)} mm from their anchors (slack ${(placed.margin * 1000).toFixed(0)} mm)`);
  assert.equal(placed.reached, true);
  assert.ok(main <= 0.005, `main palm ${main} m`);
  assert.ok(support <= 0.005, `support palm ${support} m`);
});

/** A two-part "rifle" as a .glb: a 0.9 m body box and a grip box below it. */
function rifleGlb() {
  const g = new GltfBuilder();
  const nodes = [];
  const meshes = [];
  for (const [name, c, s] of [['body', [0, 0.03, 0.09], [0.05, 0.07, 0.9]], ['grip_pistol', [0, -0.055, -0.02], [0.03, 0.11, 0.03]]]) {
    const P = [];
    for (let i = 0; i < 8; i++) P.push(c[0] + (i & 1 ? 0.5 : -0.5) * s[0], c[1] + (i & 2 ? 0.5 : -0.5) * s[1], c[2] + (i & 4 ? 0.5 : -0.5) * s[2]);
    const I = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5];
    const pos = g.accessor(Float32Array.from(P), 'VEC3', { target: TARGET.ARRAY_BUFFER, minmax: true });
    const idx = g.accessor(Uint16Array.from(I), 'SCALAR', { target: TARGET.ELEMENT_ARRAY_BUFFER });
    meshes.push({ name, primitives: [{ attributes: { POSITION: pos }, indices: idx }] });
    nodes.push({ name, mesh: meshes.length - 1 });
  }
  return g.glb({ asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0, 1] }], nodes, meshes });
}

test('loadProp(.glb bytes, { grip, name, position }): mesh colliders under the prop on layer 0, a box surface per mesh, anchors as children; destroy removes it all', async () => {
  const world = await createWorld();
  const before = world.entityCount;
  const prop = await world.loadProp(rifleGlb(), {
    name: 'carbine',
    position: [1, 1, 1],
    grip: { mainAnchor: { position: [0, -0.05, -0.02], rotation: [0, 0, 0, 1] }, supportAnchor: { position: [0, 0, 0.3] }, mainPose: 'pistol', hand: 'Right' },
  });
  assert.equal(prop.name, 'carbine');
  assert.equal(prop.meshes.length, 2);
  assert.equal(prop.surfaces.length, 2, 'a box per mesh node');
  assert.equal(prop.twoHanded, true);
  const profile = world.get(prop.entity, GripProfile);
  assert.equal(profile.mainPose, 'pistol');
  assert.equal(profile.mainAnchor, prop.anchors.main);
  assert.equal(world.get(prop.anchors.support, Transform).parent, prop.entity);
  const body = prop.entities.get('body');
  assert.equal(world.get(body, Transform).parent, prop.entity);
  assert.equal(world.get(body, Collider).layer, 0, 'a held prop never blocks its holder');
  const box = world.get(body, GripSurface);
  assert.deepEqual(box.size.map((x) => +x.toFixed(4)), [0.05, 0.07, 0.9]);
  assert.deepEqual(box.center.map((x) => +x.toFixed(4)), [0, 0.03, 0.09]);
  world.step(DT);
  // on layer 0 no query sees the meshes; given a layer, a ray down hits the body's top where the prop put it
  assert.equal(world.collide.raycast([1, 2, 1.1], [0, -1, 0], 5), null, 'layer 0: no query sees it');
  world.update(body, Collider, (c) => { c.layer = 4; });
  const hit = world.collide.raycast([1, 2, 1.1], [0, -1, 0], 5, { layers: 4 });
  assert.ok(hit && Math.abs(hit.point[1] - (1 + 0.065)) < 1e-4, `top of the body at y ${hit?.point[1]}`);
  assert.equal(world.entityCount, before + 5, 'root, two anchors, two meshes');
  prop.destroy();
  assert.equal(world.entityCount, before);
});

test('hostile input: wrong types, missing files, broken glTF, bad layers, bad navmesh, bad prop options throw a LimberError naming the function and field; the world is unchanged', async () => {
  const world = await createWorld();
  const scene = await walker(world);
  await world.loadLevel('assets/levels/corridor.json');
  scene.step(DT);
  const hash = world.hash();
  const count = world.entityCount;
  const glb = readFileSync('assets/levels/corridor.glb');
  const broken = glb.subarray(0, 200);
  const badMagic = Uint8Array.from([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 12, 0, 0, 0]);
  const levelJson = JSON.parse(readFileSync('assets/levels/corridor.json', 'utf8'));
  const badPiece = { ...levelJson, pieces: [...levelJson.pieces.slice(0, 3), { name: 'crate', kind: 'obstacle', shape: 'box', center: [0, 0, 0], size: 'big' }] };
  const cases = [
    ['loadLevel', [42], 'LB_ERR_INVALID_ARGUMENT', /loadLevel: field 'source' must be bytes/],
    ['loadLevel', [null], 'LB_ERR_INVALID_ARGUMENT', /field 'source'/],
    ['loadLevel', ['assets/levels/no-such-level.glb'], 'LB_ERR_INVALID_ARGUMENT', /field 'source'.*cannot read .*no-such-level\.glb \(ENOENT/],
    ['loadLevel', [new Uint8Array(0)], 'LB_ERR_INVALID_ARGUMENT', /field 'source' is empty/],
    ['loadLevel', [broken], 'LB_ERR_PARSE', /loadLevel: scene: level 'level\.glb'/],
    ['loadLevel', [badMagic], 'LB_ERR_PARSE', /loadLevel: .*level 'level\.glb'/],
    ['loadLevel', [new TextEncoder().encode('{"pieces": [')], 'LB_ERR_PARSE', /field 'source' is neither a glTF binary/],
    ['loadLevel', [badPiece], 'LB_ERR_PARSE', /piece 'crate': field 'size'/],
    ['loadLevel', [{ name: 'not-a-level' }], 'LB_ERR_PARSE', /'pieces' must be an array/],
    ['loadLevel', [levelJson, { layers: { wall: -1 } }], 'LB_ERR_OUT_OF_RANGE', /field 'options\.layers\.wall' must be layer bits/],
    ['loadLevel', [levelJson, { layers: { wall: 'walls' } }], 'LB_ERR_OUT_OF_RANGE', /options\.layers\.wall/],
    ['loadLevel', [levelJson, { layers: 3 }], 'LB_ERR_INVALID_ARGUMENT', /field 'options\.layers' must be an object/],
    ['loadLevel', [levelJson, { layer: { wall: 2 } }], 'LB_ERR_INVALID_ARGUMENT', /field 'options\.layer' is not an option/],
    ['loadLevel', [levelJson, { navMesh: 7 }], 'LB_ERR_INVALID_ARGUMENT', /options\.navMesh/],
    // fails after the colliders were made: the load is undone
    ['loadLevel', [levelJson, { navMesh: { format: 'limber-navmesh', version: 1, vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]], polygons: [[0, 1, 2]], neighbours: [[-1, -1]] } }], 'LB_ERR_PARSE', /loadLevel: .*mesh\.neighbours\[0\]/],
    ['loadLevel', [levelJson, { navMesh: { bake: { cellSize: -1 } } }], 'LB_ERR_OUT_OF_RANGE', /loadLevel: .*settings\.cellSize/],
    ['loadProp', [3.5], 'LB_ERR_INVALID_ARGUMENT', /loadProp: field 'source'/],
    ['loadProp', ['assets/props/no-such-prop.json'], 'LB_ERR_INVALID_ARGUMENT', /loadProp: field 'source'.*ENOENT/],
    ['loadProp', [broken], 'LB_ERR_PARSE', /loadProp: /],
    ['loadProp', [levelJson], 'LB_ERR_PARSE', /loadProp: field 'source' must be a Limber prop.*not a level/],
    ['loadProp', ['assets/props/rifle.json', { surfaces: [{ shape: 'Torus' }] }], 'LB_ERR_UNKNOWN_NAME', /field 'options\.surfaces\[0\]\.shape'/],
    ['loadProp', ['assets/props/rifle.json', { surfaces: [{ shape: 'Box', size: [0.1, -1, 0.1] }] }], 'LB_ERR_OUT_OF_RANGE', /GripSurface.*size/],
    ['loadProp', ['assets/props/rifle.json', { position: [0, NaN, 0] }], 'LB_ERR_NOT_FINITE', /field 'options\.position\[1\]'/],
    ['loadProp', ['assets/props/rifle.json', { grip: { mainAnchor: null } }], 'LB_ERR_INVALID_ARGUMENT', /options\.grip\.mainAnchor/],
    ['loadProp', ['assets/props/rifle.json', { grip: { hand: 'Middle' } }], 'LB_ERR_UNKNOWN_NAME', /GripProfile.*hand/],
    ['loadProp', ['assets/props/rifle.json', { name: '' }], 'LB_ERR_OUT_OF_RANGE', /options\.name/],
    ['loadProp', [rifleGlb(), { colliderLayer: 1.5 }], 'LB_ERR_OUT_OF_RANGE', /options\.colliderLayer/],
  ];
  for (const [fn, args, code, re] of cases) {
    await assert.rejects(world[fn](...args), (e) => {
      console.log(`  ${fn}(${args.map((a) => (a instanceof Uint8Array ? `${a.length} bytes` : typeof a === 'string' ? a : JSON.stringify(a)?.slice(0, 40))).join(', ')}): ${e.message}`);
      return e instanceof LimberError && e.code === code && re.test(e.message);
    }, `${fn} ${code} ${re}`);
    assert.equal(world.entityCount, count, 'no entity left behind');
    assert.equal(world.hash(), hash);
  }
  scene.step(DT); // and the world steps on
});
