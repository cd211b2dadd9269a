// The typed API, checked by the compiler (tsc -p tests/types/tsconfig.json --strict --noEmit; a
// stage of scripts/test.mjs). Never run. Each `@ts-expect-error` line is a misuse the types
// must refuse: the build fails if one compiles (the directive is then unused). The other lines
// must compile: vectors in any form, handles of the right kind, plain numbers (older callers).
import { Quaternion, Vector3 } from 'three';
import {
  Animator,
  Collider,
  createWorld,
  NavAgent,
  navPathStatus,
  Rig,
  Transform,
  type ClipHandle,
  type ControllerHandle,
  type MeshHandle,
  type NavMeshHandle,
  type NavPathStatus,
  type Quat,
  type RigHandle,
  type Vec3,
} from '../../web/bridge/index.js';

export async function typedApi(navJson: string): Promise<unknown[]> {
  const world = await createWorld();
  const e = world.spawn();
  const rig: RigHandle = world.rig.addHumanoid();
  const nav: NavMeshHandle = world.nav.addMesh(navJson, 'arena');
  const found: NavMeshHandle = world.nav.find('arena');
  const mesh: MeshHandle = world.collide.addMesh([0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 2, 1]);
  const controller: ControllerHandle = world.anim.addController(rig, { states: [] });
  const clip: ClipHandle = world.anim.findClip('Walk', rig);

  // ---- asset handles: the right kind compiles ------------------------------------------------
  world.insert(e, Rig, { asset: rig });
  world.insert(e, Animator, { controller });
  world.insert(e, NavAgent, { navMesh: nav });
  world.insert(e, Collider, { shape: 'Mesh', mesh });
  const fromComponent: RigHandle = world.get(e, Rig).asset;
  world.rig.findJoint(fromComponent, 'Hips');
  world.anim.controllerInfo(world.get(e, Animator).controller);
  world.nav.nearest(world.get(e, NavAgent).navMesh, [0, 0, 0]);
  world.collide.meshTriangleCount(mesh);
  world.anim.sampleClip(clip, 0.5);
  // Plain numbers are still accepted (handles kept in `number` variables, older code).
  const kept: number = rig;
  world.insert(e, Rig, { asset: kept });
  world.insert(e, Rig, { asset: 1 });
  world.anim.addController(1, { states: [] });
  world.nav.nearest(2, [0, 0, 0]);

  // ---- asset handles: another kind does not --------------------------------------------------
  // @ts-expect-error a navmesh handle is not a skeleton (Rig.asset)
  world.insert(e, Rig, { asset: nav });
  // @ts-expect-error a mesh handle is not a skeleton (addController's skeleton)
  world.anim.addController(mesh, { states: [] });
  // @ts-expect-error a skeleton handle is not a navmesh
  world.nav.nearest(rig, [0, 0, 0]);
  // @ts-expect-error a controller handle is not a triangle mesh (Collider.mesh)
  world.insert(e, Collider, { shape: 'Mesh', mesh: controller });
  // @ts-expect-error a clip handle is not a skeleton
  world.rig.findJoint(clip, 'Hips');
  // @ts-expect-error a navmesh handle is not a controller
  world.anim.controllerInfo(found);
  // @ts-expect-error what a Rig holds is a skeleton, not a navmesh
  const wrongKind: NavMeshHandle = world.get(e, Rig).asset;
  // @ts-expect-error a plain number is not a branded handle (only parameters take one)
  const forged: RigHandle = 3;

  // ---- vectors: THREE.Vector3 / THREE.Quaternion, {x, y, z}, typed arrays ----------------------
  const p = new Vector3(1, 2, 3);
  world.insert(e, Transform, { position: p, rotation: new Quaternion(), scale: new Float32Array([1, 1, 1]) });
  world.insert(e, Transform, { position: { x: 1, y: 2, z: 3 }, rotation: { x: 0, y: 0, z: 0, w: 1 } });
  world.update(e, Transform, () => ({ position: p.clone().add(new Vector3(0, 1, 0)) }));
  world.collide.raycast(p, new Vector3(0, -1, 0), 10);
  world.collide.raycast({ x: 0, y: 1, z: 0 }, [0, -1, 0], 10);
  world.collide.overlapBox(p, new Quaternion(), { x: 1, y: 1, z: 1 });
  world.controller.move(e, new Vector3(0, 0, 0.1));
  world.nav.findPath(nav, p, { x: 1, y: 0, z: 1 });
  world.nav.setDestination(e, p);
  // What the API returns is an array.
  const position: Vec3 = world.get(e, Transform).position;
  const rotation: Quat = world.get(e, Transform).rotation;
  // @ts-expect-error a Vector3 has no w: not a rotation
  world.insert(e, Transform, { rotation: p });
  // @ts-expect-error {x, y} is not a 3-vector
  world.insert(e, Transform, { position: { x: 1, y: 2 } });
  // @ts-expect-error two numbers are not a 3-vector
  world.collide.raycast([0, 1], [0, -1, 0], 10);

  // ---- enum strings: the schema's casing -----------------------------------------------------
  const status: NavPathStatus = world.nav.findPath(nav, [0, 0, 0], [1, 0, 1]).status;
  const agentStatus: NavPathStatus | 'None' = world.get(e, NavAgent).pathStatus;
  // @ts-expect-error the old lower-case spelling is not a NavPathStatus ...
  const old: NavPathStatus = 'complete';
  // ... but navPathStatus() reads it
  const read: NavPathStatus = navPathStatus('complete');

  // ---- levels, props and input logs ------------------------------------------------------------
  const level = await world.loadLevel('level.glb', { layers: { wall: 2 }, navMesh: 'bake' });
  const levelNav: NavMeshHandle | undefined = level.navMesh;
  const wallMeshes: readonly MeshHandle[] = level.meshes;
  // @ts-expect-error a number is not a level source
  await world.loadLevel(42);
  // @ts-expect-error navMesh takes 'bake', { bake }, a navmesh or false
  await world.loadLevel('level.glb', { navMesh: true });
  const prop = await world.loadProp(new Uint8Array(0), { position: new Vector3(0, 1, 0), surfaces: [{ shape: 'Cylinder', radius: 0.02 }] });
  // @ts-expect-error a surface shape is one of the GripSurface shapes
  await world.loadProp('rifle.json', { surfaces: [{ shape: 'Torus' }] });
  world.insert(e, Transform, { parent: prop.entity });
  world.record();
  const log = world.stopRecording();
  const hash: string = world.replay(log, { onStep: (n: number) => void n });
  // @ts-expect-error a replay takes a log, not its text
  world.replay(JSON.stringify(log));

  return [found, kept, wrongKind, forged, position, rotation, status, agentStatus, old, read, levelNav, wallMeshes, hash];
}
