/** Limber playground: a scene stepped at a fixed 1/60 s, drawn with three.js;
 * IK targets and hints can be dragged with a gizmo.
 *
 * URL parameters (for tests and bug reports):
 *   scene=NAME.json  a scene from assets/scenes/ (default: default.json)
 *   steps=N          run N fixed steps at load
 *   paused=1         then do not step with time; only edits (gizmo drag,
 *                    limber.dragTarget, the Step button) advance one step each
 *   select=NAME      the entity the gizmo starts on (default: the first IK target)
 *
 * Scenes with an Animator get a speed slider (#speed) on the first blend-space parameter, a
 * button per trigger and the current state (#anim-state); the camera follows the character.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { Animator, animatorParam, controllerInfo, createWorld, GripHolder, GripProfile, Rig, Transform, TwoBoneIK, type Entity, type HandSide, type Scene, type Vec3, type World } from '../bridge/browser.js';
import { EntityMarker, GripView, SkeletonView, jointWorldPosition, parentFrame, setWorldPosition, type WorldView } from '../three/index.js';
import wasmUrl from '../../build/wasm/limber.wasm?url';

const DT = 1 / 60;
const MAX_STEPS_PER_FRAME = 8;

const sceneFiles = import.meta.glob<string>('../../assets/scenes/*.json', { query: '?raw', import: 'default' });
/** Files scenes may refer to (glTF rigs), as URLs; scenes name them repository-relative. */
const rigFiles = import.meta.glob<string>('../../assets/rigs/*.{glb,gltf}', { query: '?url', import: 'default' });

async function fetchSceneFiles(world: World, text: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const path of world.sceneFiles(text)) {
    const url = rigFiles[`../../${path}`];
    if (!url) throw new Error(`the scene refers to '${path}', which is not under assets/rigs/`);
    const res = await fetch(await url());
    if (!res.ok) throw new Error(`cannot load ${path}: HTTP ${res.status}`);
    files[path] = new Uint8Array(await res.arrayBuffer());
  }
  return files;
}

/** What the page exposes as window.limber (used by the Playwright tests). */
export interface PlaygroundApi {
  world: World;
  scene: Scene;
  three: { scene: THREE.Scene; camera: THREE.PerspectiveCamera; renderer: THREE.WebGLRenderer; gizmo: TransformControls; orbit: OrbitControls };
  hash(): string;
  steps(): number;
  paused(): boolean;
  /** World position of a rig joint by name or path (rig root transform applied to the model pose). */
  handPosition(name: string): Vec3;
  /** World position of a named scene entity as of the last step. */
  entityPosition(name: string): Vec3;
  /** Moves a named Transform entity like the gizmo does, then steps once. */
  dragTarget(name: string, position: Vec3): void;
  /** Selects the entity the gizmo is attached to. */
  select(name: string): void;
  selected(): string | null;
  /** The gizmo handle under the pointer (null if none). */
  gizmoAxis(): string | null;
  /** Viewport (CSS pixel) coordinates of a world point. */
  screenPosition(p: Vec3): [number, number];
  /** Every GripHolder's main hand flips (Right ↔ Left), then one step: the hold mirrors. */
  switchHand(): void;
  /** A holder's main hand, palm-to-anchor distances and drawn palm positions. */
  grip(name: string): { mainHand: HandSide; mainDistance: number; supportDistance: number; palms: Record<'main' | 'support', Vec3 | null> };
  /** An Animator entity's state, parameters and world position (first Animator by default). */
  animator(name?: string): { state: string; params: Record<string, number | boolean>; position: Vec3 };
  /** Runs n fixed steps now (paused or not), then refreshes the views. */
  advance(n: number): void;
}

declare global {
  interface Window {
    limber?: PlaygroundApi;
  }
}

interface Params {
  scene: string;
  steps: number;
  paused: boolean;
  select: string | null;
}

function readParams(): Params {
  const q = new URLSearchParams(location.search);
  const steps = q.get('steps');
  if (steps !== null && !/^\d+$/.test(steps)) throw new Error(`URL parameter steps=${steps} is not a whole number`);
  return {
    scene: q.get('scene') ?? 'default.json',
    steps: steps === null ? 0 : Number(steps),
    paused: q.get('paused') === '1',
    select: q.get('select'),
  };
}

function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
}

interface Arm {
  name: string;
  entity: Entity;
  reached: HTMLTableCellElement;
  distance: HTMLTableCellElement;
}

async function main(): Promise<void> {
  const params = readParams();
  const load = sceneFiles[`../../assets/scenes/${params.scene}`];
  if (!load) throw new Error(`unknown scene '${params.scene}'; have ${Object.keys(sceneFiles).map((k) => k.split('/').pop()).join(', ')}`);

  const world = await createWorld({ wasm: wasmUrl });
  const text = await load();
  const scene = world.loadScene(text, { files: await fetchSceneFiles(world, text) });
  for (let i = 0; i < params.steps; i++) scene.step(DT);
  let paused = params.paused;

  const nameOf = new Map<Entity, string>();
  for (const [name, e] of scene.entities) nameOf.set(e, name);
  const entities = [...scene.entities.values()];
  const rigs = entities.filter((e) => world.has(e, Rig));
  const isMarkable = (e: Entity) => e !== 0 && world.alive(e) && world.has(e, Transform) && !world.has(e, Rig) && !world.has(e, TwoBoneIK);
  const holders = entities.filter((e) => world.has(e, GripHolder));
  const animated = entities.filter((e) => world.has(e, Animator));

  // --- three.js scene -------------------------------------------------------
  const container = el<HTMLDivElement>('view');
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setSize(window.innerWidth, window.innerHeight);
  container.appendChild(renderer.domElement);

  const three = new THREE.Scene();
  three.background = new THREE.Color(0x1b1e23);
  three.add(new THREE.HemisphereLight(0xffffff, 0x3a3f47, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(2, 4, 3);
  three.add(sun);
  // Characters that walk get room to walk.
  const grid = animated.length > 0 ? new THREE.GridHelper(60, 240, 0x5b6470, 0x2c323a) : new THREE.GridHelper(10, 40, 0x5b6470, 0x2c323a);
  three.add(grid);

  const camera = new THREE.PerspectiveCamera(40, window.innerWidth / window.innerHeight, 0.01, 200);

  const views: WorldView[] = [];
  const skeletons = rigs.map((e) => new SkeletonView(world, e));
  for (const s of skeletons) views.push(s);

  // IK targets (draggable, orange) and hints (violet); the arm table.
  const markers = new Map<Entity, EntityMarker>();
  const arms: Arm[] = [];
  const tbody = el<HTMLTableElement>('ik').tBodies[0];
  for (const e of entities) {
    if (!world.has(e, TwoBoneIK)) continue;
    const ik = world.get(e, TwoBoneIK);
    for (const [m, isTarget] of [
      [ik.target, true],
      [ik.hint, false],
    ] as const) {
      if (!isMarkable(m) || markers.has(m)) continue;
      const marker = isTarget
        ? new EntityMarker(world, m, { color: 0xff7043, radius: 0.03, label: nameOf.get(m) })
        : new EntityMarker(world, m, { color: 0xb388ff, radius: 0.022, label: nameOf.get(m) });
      markers.set(m, marker);
      views.push(marker);
    }
    const name = nameOf.get(e) ?? `entity ${e}`;
    const row = tbody.insertRow();
    row.id = `ik-${name}`;
    row.insertCell().textContent = name;
    const reached = row.insertCell();
    reached.className = 'reached';
    const distance = row.insertCell();
    distance.className = 'distance';
    arms.push({ name, entity: e, reached, distance });
  }
  // Held objects (GripProfile) are draggable too (teal): with Object placement the arms follow.
  for (const e of entities) {
    if (!world.has(e, GripProfile) || !isMarkable(e) || markers.has(e)) continue;
    const marker = new EntityMarker(world, e, { color: 0x26c6da, radius: 0.025, label: nameOf.get(e) });
    markers.set(e, marker);
    views.push(marker);
  }
  const gripView = new GripView(world, entities);
  views.push(gripView);
  const gripBody = el<HTMLTableElement>('grip').tBodies[0];
  const gripRows = holders.map((e) => {
    const row = gripBody.insertRow();
    row.id = `grip-${nameOf.get(e) ?? e}`;
    row.insertCell().textContent = nameOf.get(e) ?? `entity ${e}`;
    return { e, hand: row.insertCell(), main: row.insertCell(), support: row.insertCell() };
  });
  el('grip').hidden = holders.length === 0;
  el('ik').hidden = arms.length === 0;
  el('ik').hidden = arms.length === 0 && animated.length > 0;
  el<HTMLButtonElement>('switch-hand').hidden = holders.length === 0;
  for (const v of views) three.add(v.object);

  // Frame the characters (and targets) from the front-right, a little above.
  const orbitTarget = new THREE.Vector3();
  {
    const box = new THREE.Box3();
    for (const s of skeletons) box.union(s.bounds());
    for (const m of markers.values()) box.expandByPoint(m.object.position);
    if (box.isEmpty()) box.setFromCenterAndSize(new THREE.Vector3(0, 1, 0), new THREE.Vector3(2, 2, 2));
    // A walking character: a standing-height box around it, seen more from the side.
    if (animated.length > 0) box.setFromCenterAndSize(new THREE.Vector3(...world.worldTransform(animated[0]).t).add(new THREE.Vector3(0, 0.9, 0)), new THREE.Vector3(1.2, 2.1, 1.2));
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const dir = animated.length > 0 ? new THREE.Vector3(1, 0.3, 0.7).normalize() : new THREE.Vector3(0.5, 0.22, 1).normalize();
    if (rigs.length > 0) {
      const r = world.worldTransform(rigs[0]).r;
      dir.applyQuaternion(new THREE.Quaternion(r[0], r[1], r[2], r[3]));
    }
    const fov = THREE.MathUtils.degToRad(camera.fov);
    const dist = (Math.max(sphere.radius, 0.25) / Math.sin(Math.min(fov, fov * camera.aspect) / 2)) * 0.92;
    camera.position.copy(sphere.center).addScaledVector(dir, dist);
    camera.lookAt(sphere.center);
    camera.near = dist / 100;
    camera.far = dist * 50;
    camera.updateProjectionMatrix();
    orbitTarget.copy(sphere.center);
  }

  // The gizmo is created before OrbitControls so its pointerdown runs first.
  const gizmo = new TransformControls(camera, renderer.domElement);
  gizmo.setMode('translate');
  gizmo.setSize(0.75);
  three.add(gizmo.getHelper());
  const orbit = new OrbitControls(camera, renderer.domElement);
  orbit.target.copy(orbitTarget);
  orbit.enableDamping = false;
  orbit.update();

  // --- HUD ------------------------------------------------------------------
  const hashEl = el('hash');
  const stepsEl = el('steps');
  const modeEl = el('mode');
  const pauseBtn = el<HTMLButtonElement>('pause');
  el('scene-name').textContent = params.scene;
  const picker = el<HTMLSelectElement>('scene-select');
  for (const key of Object.keys(sceneFiles).sort()) {
    const file = key.split('/').pop() ?? key;
    picker.add(new Option(file, file, false, file === params.scene));
  }
  picker.addEventListener('change', () => {
    location.search = `?scene=${encodeURIComponent(picker.value)}`;
  });

  // The scene's own description, and help for what this scene has.
  el('description').textContent = (JSON.parse(text) as { description?: string }).description ?? '';
  const help: string[] = [];
  if (markers.size > 0) help.push('Drag the gizmo to move the selected target; click a sphere (orange: target, violet: hint, teal: held object) to select it.');
  if (holders.length > 0) help.push('Grip: green wireframes are surfaces; palms yellow (main) and blue (support). "Switch hand" mirrors the hold.');
  if (animated.length > 0) help.push('Move the slider to set the blend parameter (your value then wins over the scene timeline); the buttons fire triggers.');
  help.push('Orbit: drag; zoom: wheel.');
  el('help').textContent = help.join(' ');
  el('ik').hidden = arms.length === 0;

  // Animator: a slider on the first blend-space parameter, a button per trigger, the state.
  const hero = animated.length > 0 ? animated[0] : null;
  const info = hero !== null ? controllerInfo(world, world.get(hero, Animator).controller) : null;
  const blend = info?.states.find((st) => st.blend !== null)?.blend ?? null;
  const speedEl = el<HTMLInputElement>('speed');
  let userSpeed: number | null = null;
  const speedValue = el('speed-value');
  const stateEl = el('anim-state');
  el('animator').hidden = hero === null;
  el('speed-row').hidden = blend === null;
  if (hero !== null && blend !== null) {
    el('speed-label').textContent = blend.parameter;
    speedEl.min = String(blend.min);
    speedEl.max = String(blend.max);
    speedEl.step = '0.05';
    speedEl.value = String(animatorParam(world, hero, blend.parameter));
    speedEl.addEventListener('input', () => {
      // A control the user touched wins over the scene timeline from now on.
      userSpeed = Number(speedEl.value);
      world.setAnimatorParam(hero, blend.parameter, userSpeed);
      refreshHud();
    });
  }
  for (const p of info?.params ?? []) {
    if (p.type !== 'trigger' || hero === null) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.id = `trigger-${p.name}`;
    b.textContent = p.name;
    b.addEventListener('click', () => world.setAnimatorTrigger(hero, p.name));
    el('triggers').appendChild(b);
  }

  function refreshHud(): void {
    if (hero !== null) {
      stateEl.textContent = world.get(hero, Animator).state;
      if (blend !== null) {
        const v = animatorParam(world, hero, blend.parameter) as number;
        speedValue.textContent = `${v.toFixed(2)}`;
        speedEl.value = String(v);
      }
    }
    hashEl.textContent = world.hash();
    stepsEl.textContent = String(world.stepCount);
    modeEl.textContent = paused ? '(paused)' : '';
    pauseBtn.textContent = paused ? 'Play' : 'Pause';
    for (const arm of arms) {
      const ik = world.get(arm.entity, TwoBoneIK);
      arm.reached.textContent = ik.reached ? 'yes' : 'no';
      arm.reached.classList.toggle('yes', ik.reached);
      arm.reached.classList.toggle('no', !ik.reached);
      arm.distance.textContent = `${(ik.distance * 1000).toFixed(2)} mm`;
    }
    for (const r of gripRows) {
      const h = world.get(r.e, GripHolder);
      r.hand.textContent = h.mainHand;
      r.main.textContent = `${(h.mainDistance * 1000).toFixed(2)} mm`;
      r.support.textContent = `${(h.supportDistance * 1000).toFixed(2)} mm`;
    }
  }

  // --- stepping -------------------------------------------------------------
  let selected: EntityMarker | null = null;
  let dragFrame: THREE.Matrix4 | null = null;
  let releaseAfterStep = -1; // a dropped marker follows the world again after this step
  let acc = 0; // seconds not yet stepped
  let last = performance.now();

  // The camera follows the first animated character.
  let followed = hero !== null ? new THREE.Vector3(...world.worldTransform(hero).t) : null;

  /** After the world stepped: views follow it, the HUD shows it. */
  function refresh(): void {
    if (selected && !gizmo.dragging && selected.hold && world.stepCount > releaseAfterStep) selected.hold = false;
    for (const v of views) v.update();
    if (hero !== null && followed !== null) {
      const now = new THREE.Vector3(...world.worldTransform(hero).t);
      const delta = now.clone().sub(followed);
      camera.position.add(delta);
      orbit.target.add(delta);
      orbit.update();
      followed = now;
    }
    refreshHud();
  }

  /** One scene step (timeline included); the user's slider value is re-applied after it. */
  function sceneStep(): void {
    scene.step(DT);
    if (hero !== null && blend !== null && userSpeed !== null) world.setAnimatorParam(hero, blend.parameter, userSpeed);
  }

  function stepOnce(): void {
    sceneStep();
    refresh();
  }

  /** The one code path for moving an entity from the page (gizmo or test API). */
  function moveEntity(marker: EntityMarker, position: THREE.Vector3, frame: THREE.Matrix4): void {
    marker.object.position.copy(position);
    setWorldPosition(world, marker.entity, position, frame);
  }

  function select(marker: EntityMarker | null): void {
    if (selected && selected !== marker) selected.hold = false;
    selected = marker;
    if (marker) gizmo.attach(marker.object);
    else gizmo.detach();
  }

  gizmo.addEventListener('dragging-changed', (ev) => {
    const dragging = ev.value === true;
    orbit.enabled = !dragging;
    if (!selected) return;
    if (dragging) {
      selected.hold = true;
      dragFrame = parentFrame(world, selected.entity);
    } else {
      dragFrame = null;
      releaseAfterStep = world.stepCount;
    }
  });
  gizmo.addEventListener('objectChange', () => {
    if (!selected || !dragFrame) return;
    moveEntity(selected, selected.object.position.clone(), dragFrame);
    if (paused) stepOnce();
  });

  // Click (no drag) on a target or hint selects it.
  const raycaster = new THREE.Raycaster();
  const ndc = new THREE.Vector2();
  let down: { x: number; y: number; onGizmo: boolean } | null = null;
  renderer.domElement.addEventListener('pointerdown', (ev) => {
    down = { x: ev.clientX, y: ev.clientY, onGizmo: gizmo.axis !== null };
  });
  renderer.domElement.addEventListener('pointerup', (ev) => {
    const d = down;
    down = null;
    if (!d || d.onGizmo || Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > 4) return;
    const rect = renderer.domElement.getBoundingClientRect();
    ndc.set(((ev.clientX - rect.left) / rect.width) * 2 - 1, -((ev.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    const hit = raycaster.intersectObjects([...markers.values()].map((m) => m.object), false)[0];
    if (hit) select(markers.get(hit.object.userData.entity as Entity) ?? null);
  });

  pauseBtn.addEventListener('click', () => {
    paused = !paused;
    acc = 0;
    refreshHud();
  });
  el<HTMLButtonElement>('step').addEventListener('click', () => {
    paused = true;
    stepOnce();
  });
  function switchHand(): void {
    for (const e of holders) {
      world.update(e, GripHolder, (h) => {
        h.mainHand = h.mainHand === 'Right' ? 'Left' : 'Right';
      });
    }
    stepOnce();
  }
  el<HTMLButtonElement>('switch-hand').addEventListener('click', switchHand);

  window.addEventListener('resize', () => {
    camera.aspect = window.innerWidth / window.innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(window.innerWidth, window.innerHeight);
  });

  // Initial selection: ?select=NAME, else the first IK target.
  const first = params.select !== null ? markers.get(scene.entity(params.select)) : markers.values().next().value;
  if (params.select !== null && !first) throw new Error(`select=${params.select} is not a target, hint or held object`);
  select(first ?? null);

  // --- test API -------------------------------------------------------------
  const markerByName = (name: string): EntityMarker => {
    const m = markers.get(scene.entity(name));
    if (!m) throw new Error(`'${name}' is not a draggable target, hint or held object`);
    return m;
  };
  window.limber = {
    world,
    scene,
    three: { scene: three, camera, renderer, gizmo, orbit },
    hash: () => world.hash(),
    steps: () => world.stepCount,
    paused: () => paused,
    handPosition(name) {
      for (const rig of rigs) {
        if (world.findJoint(world.get(rig, Rig).asset, name) >= 0) return jointWorldPosition(world, rig, name).toArray() as Vec3;
      }
      throw new Error(`no rig has a joint '${name}'`);
    },
    entityPosition: (name) => world.worldTransform(scene.entity(name)).t,
    dragTarget(name, position) {
      const m = markerByName(name);
      moveEntity(m, new THREE.Vector3(...position), parentFrame(world, m.entity));
      stepOnce();
    },
    select: (name) => select(markerByName(name)),
    selected: () => (selected ? (nameOf.get(selected.entity) ?? null) : null),
    gizmoAxis: () => gizmo.axis,
    screenPosition(p) {
      const v = new THREE.Vector3(...p).project(camera);
      const rect = renderer.domElement.getBoundingClientRect();
      return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
    },
    switchHand,
    grip(name) {
      const e = scene.entity(name);
      const h = world.get(e, GripHolder);
      const palm = (role: 'main' | 'support'): Vec3 | null => {
        const g = gripView.palm(e, role);
        return g ? (new THREE.Vector3().setFromMatrixPosition(g.matrix).toArray() as Vec3) : null;
      };
      return { mainHand: h.mainHand, mainDistance: h.mainDistance, supportDistance: h.supportDistance, palms: { main: palm('main'), support: palm('support') } };
    },
    animator(name) {
      const e = name !== undefined ? scene.entity(name) : hero;
      if (e === null || !world.has(e, Animator)) throw new Error(`${name ?? 'the scene'} has no Animator`);
      const params: Record<string, number | boolean> = {};
      for (const p of controllerInfo(world, world.get(e, Animator).controller).params) params[p.name] = animatorParam(world, e, p.name);
      return { state: world.get(e, Animator).state, params, position: world.worldTransform(e).t };
    },
    advance(n) {
      for (let i = 0; i < n; i++) sceneStep();
      refresh();
    },
  };

  // --- loop: fixed steps from an accumulator --------------------------------
  function frame(now: number): void {
    const elapsed = Math.min(Math.max(0, (now - last) / 1000), 0.25);
    last = now;
    if (!paused) {
      acc += elapsed;
      let n = 0;
      while (acc >= DT && n < MAX_STEPS_PER_FRAME) {
        sceneStep();
        acc -= DT;
        n++;
      }
      if (n === MAX_STEPS_PER_FRAME) acc = 0; // too slow: drop time rather than spiral
      if (n > 0) refresh();
    }
    renderer.render(three, camera);
    requestAnimationFrame(frame);
  }
  refresh();
  renderer.render(three, camera);
  document.body.dataset.ready = '1';
  requestAnimationFrame(frame);
}

main().catch((err: unknown) => {
  const msg = err instanceof Error ? err.message : String(err);
  const box = document.getElementById('error');
  if (box) box.textContent = msg;
  document.body.dataset.ready = 'error';
  console.error(err);
});
