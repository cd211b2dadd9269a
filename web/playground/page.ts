/** The page's settings: the fixed step, the URL parameters, DOM lookup by id.
 *
 * URL parameters (for tests and bug reports):
 *   scene=NAME.json  a scene from assets/scenes/ (default: default.json; with editor=1,
 *                    EDITOR_SCENE, which has a character and an object to hold)
 *   steps=N          run N fixed steps at load
 *   paused=1         then do not step with time; only edits (gizmo drag,
 *                    limber.dragTarget, the Step button) advance one step each
 *   select=NAME      the entity the gizmo starts on (default: the first IK target; none on a
 *                    held object outside the editor)
 *   skeleton=1       start with the skeleton overlay on (the #show-skeleton checkbox)
 *   layers=a,b       exactly these debug layers shown (ids: skeleton, ik, palms, surfaces,
 *                    contacts, colliders, controllers, vault, nav; each where the scene has it)
 *   editor=1         the grip editor panel (editor/grip-editor.ts)
 *   timeline=0       load the scene without its timeline (vault.ts: requests come from the page)
 *   threads=N        the world's threads, 1..64 (default: the browser's cores; the page is
 *                    served cross-origin isolated, so limber-mt.wasm runs them)
 */

export const DT = 1 / 60;
/** The scene `?editor=1` opens without `scene=`: the grip editor needs a character with a
 * Rig and an object with a GripProfile, which default.json does not have. */
export const EDITOR_SCENE = 'grip-lab.json';
/** A frame's elapsed time counts for at most this much simulated time (seconds): a tab back
 * from the background does not replay what it missed. */
export const MAX_FRAME_SECONDS = 1;
/** Wall-clock time a frame may always spend stepping, ms; a slow frame may spend half its
 * elapsed time (loop.ts). */
export const STEP_BUDGET_MS = 25;

export interface Params {
  scene: string;
  steps: number;
  paused: boolean;
  select: string | null;
  skeleton: boolean;
  layers: Set<string> | null;
  editor: boolean;
  timeline: boolean;
  /** ?threads=N; undefined: createWorld's default. */
  threads: number | undefined;
}

export function readParams(): Params {
  const q = new URLSearchParams(location.search);
  const steps = q.get('steps');
  const editor = q.get('editor') === '1';
  if (steps !== null && !/^\d+$/.test(steps)) throw new Error(`URL parameter steps=${steps} is not a whole number`);
  const threads = q.get('threads');
  if (threads !== null && !/^\d+$/.test(threads)) throw new Error(`URL parameter threads=${threads} is not a whole number`);
  return {
    scene: q.get('scene') ?? (editor ? EDITOR_SCENE : 'default.json'),
    steps: steps === null ? 0 : Number(steps),
    paused: q.get('paused') === '1',
    select: q.get('select'),
    skeleton: q.get('skeleton') === '1',
    layers: q.has('layers') ? new Set((q.get('layers') ?? '').split(',').filter((x) => x)) : null,
    editor,
    timeline: q.get('timeline') !== '0',
    threads: threads === null ? undefined : Number(threads),
  };
}

export function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
}
