/** Limber playground: a scene stepped at a fixed 1/60 s, drawn with three.js;
 * IK targets and hints can be dragged with a gizmo. URL parameters: page.ts.
 *
 * Characters are drawn as bodies (RigMeshView): a glTF rig's own skinned mesh, or a body
 * generated from the skeleton for a builtin rig; the skeleton is an optional overlay. Held
 * props are solid. The floor (y = 0) follows the camera target; the camera frames each scene
 * (the characters and their targets; a grip's hands and held object; a walker from the side).
 *
 * Scenes with an Animator get a speed slider (#speed) on the first blend-space parameter, a
 * button per trigger and the current state (#anim-state); the camera follows the character.
 *
 * Scenes on a level ("level" in the scene: box colliders) draw it solid; characters with an
 * EnvironmentInteraction get its debug layers and weight plot (interaction.ts).
 *
 * Scenes with NavAgents (nav.ts) draw their navmeshes, each agent's path, steering target and
 * destination (debug layer 'nav'); a click on the navmesh sends the selected agent there; the
 * HUD's nav block switches the agent and its drive mode and shows its speed parameter and
 * turn angle.
 *
 * This file puts the parts together: scene-load.ts (the scene), stage.ts (renderer, scene,
 * lights, floor), scene-views.ts (views and debug layers), hud.ts, camera.ts, selection.ts
 * (the gizmo and clicks), loop.ts (stepping), api.ts (window.limber) and the grip editor.
 */
import { Vector3 } from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { GripHolder, GripProfile, type Entity, type Vec3 } from '../bridge/browser.js';
import { jointWorldPosition } from '../three/index.js';
import { CameraFollow, createControls, frameCamera, watchResize } from './camera.js';
import { installApi } from './api.js';
import { GripEditor } from './editor/grip-editor.js';
import { Hud, HudTables } from './hud.js';
import { StepLoop } from './loop.js';
import { DT, el, readParams, type Params } from './page.js';
import { loadScene, type Loaded } from './scene-load.js';
import { buildSceneViews, type SceneViews } from './scene-views.js';
import { listenClicks, Selection } from './selection.js';
import { Stage } from './stage.js';
import { Subject } from './subject.js';

/** Every GripHolder's main hand flips (Right ↔ Left): the hold mirrors. */
function flipMainHands(loaded: Loaded): void {
  for (const e of loaded.holders) {
    loaded.world.update(e, GripHolder, (h) => {
      h.mainHand = h.mainHand === 'Right' ? 'Left' : 'Right';
    });
  }
}

/** The initial selection: ?select=NAME, else the first IK target; a held object only in the
 * grip editor (elsewhere the gizmo would cover the hands). */
function firstSelected(params: Params, loaded: Loaded, markers: Map<Entity, unknown>): Entity | null {
  if (params.select === null) {
    const first: Entity | undefined = markers.keys().next().value;
    return first === undefined || (loaded.world.has(first, GripProfile) && !params.editor) ? null : first;
  }
  const e = loaded.scene.entity(params.select);
  if (!markers.has(e)) throw new Error(`select=${params.select} is not a target, hint or held object`);
  return e;
}

/** The grip editor (?editor=1) on the page's parts. */
function createEditor(p: { params: Params; loaded: Loaded; stage: Stage; sv: SceneViews; gizmo: TransformControls; orbit: OrbitControls; loop: StepLoop; selection: Selection; refresh(): void; refreshHud(): void }): GripEditor {
  const { loaded, stage, loop } = p;
  return new GripEditor({
    world: loaded.world,
    scene: loaded.scene,
    sceneName: p.params.scene,
    sceneText: loaded.text,
    three: stage.three,
    camera: stage.camera,
    renderer: stage.renderer,
    gizmo: p.gizmo,
    orbit: p.orbit,
    nameOf: loaded.nameOf,
    drawn: p.sv.drawn,
    step: () => {
      loaded.world.step(DT);
      p.refresh();
    },
    refresh: p.refresh,
    setPaused: (paused) => {
      loop.setPaused(paused);
      p.refreshHud();
    },
    paused: () => loop.paused,
    deselect: () => p.selection.select(null),
    invalidate: stage.invalidate,
  });
}

/** Steps until the subject's pose has settled: one (step 0 is the rig's rest pose, a T-pose
 * with a held prop not placed yet), or to the end of the slowest grip blend. */
function settleSteps({ world, holders }: Loaded): number {
  const blend = Math.max(0, ...holders.map((e) => world.get(e, GripHolder).blendSeconds));
  return Math.min(1 + Math.ceil(blend / DT), 120);
}

/** Frames the subject as it will stand once settled (settleSteps): a scene opened before that
 * is stepped on to frame it, then put back exactly as it was (world.snapshot/restore: same
 * hash, same step count), the camera moved back with the lead character. */
function frameSettled(loaded: Loaded, subject: Subject, stage: Stage, editor: boolean): Vector3 {
  const { world, scene } = loaded;
  const settle = settleSteps(loaded);
  if (world.stepCount >= settle) return frameCamera(loaded, subject, stage, editor);
  const where = (): Vec3 => (subject.lead !== null ? world.worldTransform(subject.lead).t : [0, 0, 0]);
  const before = world.snapshot();
  const from = where();
  while (world.stepCount < settle) scene.step(DT);
  const to = where();
  try {
    const target = frameCamera(loaded, subject, stage, editor);
    const back = new Vector3(from[0] - to[0], from[1] - to[1], from[2] - to[2]);
    stage.camera.position.add(back);
    return target.add(back);
  } finally {
    world.restore(before);
  }
}

async function main(): Promise<void> {
  const params = readParams();
  const loaded = await loadScene(params);
  const { world, scene } = loaded;
  const stage = new Stage();
  const refreshHud = (): void => hud.refresh();
  const sv = await buildSceneViews(loaded, stage, params, () => {
    sv.layers.update();
    refreshHud();
  });
  const tables = new HudTables(world, loaded);
  el('editor').hidden = !params.editor;
  let editor: GripEditor | null = null;
  const hud = new Hud(loaded, params, sv, tables, { paused: () => loop.paused, previewing: () => editor?.previewing === true, rate: () => loop.rate() });
  // After the HUD is filled in: its width places the picture.
  const subject = new Subject(loaded, sv);
  // the grip editor reframes on its holder once it has one (editor/editor-camera.ts)
  const target = frameSettled(loaded, subject, stage, params.editor);
  const { gizmo, orbit } = createControls(stage, target);
  const follow = new CameraFollow(world, subject, stage.camera, orbit, params.editor);
  let seen = subject.points();
  // A wall between the camera and the subject is drawn see-through (orbiting included).
  stage.beforeRender.push(() => sv.level?.fadeBetween(stage.camera.position, seen));
  const refresh = (): void => {
    selection.releaseDropped();
    for (const v of sv.views) v.update();
    sv.layers.update();
    hud.plot.sample();
    follow.update();
    seen = subject.points();
    stage.floor.setShadows(loaded.rigs.slice(0, 4).map((e) => {
      const hips = jointWorldPosition(world, e, 0);
      return [hips.x, hips.z] as const;
    }), 0.4, 0.3);
    stage.invalidate();
    refreshHud();
  };
  const loop = new StepLoop({
    scene,
    stage,
    target: orbit.target,
    paused: params.paused,
    afterStep: () => {
      sv.interaction?.panel.record();
      sv.vault?.panel.record();
      hud.animator.afterStep();
    },
    refresh,
    tick: (now) => editor?.tick(now),
  });
  const selection = new Selection(world, gizmo, orbit, stage.invalidate, () => {
    if (loop.paused) loop.stepOnce();
  });
  const previewing = (): boolean => editor?.previewing === true;
  listenClicks({ renderer: stage.renderer, camera: stage.camera, gizmo, markers: sv.markers, selection, nav: sv.nav, previewing });
  const switchHand = (): void => {
    flipMainHands(loaded);
    loop.stepOnce();
  };
  listenButtons(loop, refreshHud, switchHand);
  watchResize(stage, params.editor);

  if (params.editor) editor = createEditor({ params, loaded, stage, sv, gizmo, orbit, loop, selection, refresh, refreshHud });
  const first = firstSelected(params, loaded, sv.markers);
  selection.select(first !== null ? (sv.markers.get(first) ?? null) : null);
  installApi({ loaded, stage, sv, gizmo, orbit, selection, loop, hud, editor, subject, switchHand });
  loop.start();
}

/** Pause/Play, Step (pauses) and Switch hand. */
function listenButtons(loop: StepLoop, refreshHud: () => void, switchHand: () => void): void {
  el<HTMLButtonElement>('pause').addEventListener('click', () => {
    loop.setPaused(!loop.paused);
    refreshHud();
  });
  el<HTMLButtonElement>('step').addEventListener('click', () => {
    loop.paused = true;
    loop.stepOnce();
  });
  el<HTMLButtonElement>('switch-hand').addEventListener('click', switchHand);
}

main().catch((err: unknown) => {
  const msg = err instanceof Error ? err.message : String(err);
  const box = document.getElementById('error');
  if (box) box.textContent = msg;
  document.body.dataset.ready = 'error';
  console.error(err);
});
