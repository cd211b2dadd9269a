/** The HUD (#hud): the IK and grip tables, the Animator block, hash and step count, the scene
 * picker, the scene's description and help, the plot panel and the grip editor link. The
 * module blocks (interaction, vault, nav) come with their views (scene-views.ts). */
import { Animator, GripHolder, GripProfile, TwoBoneIK, type Entity, type World } from '../bridge/browser.js';
import { PlotPanel } from './editor/plot.js';
import { el, type Params } from './page.js';
import { sceneFileNames, type Loaded } from './scene-load.js';
import type { SceneViews } from './scene-views.js';

const mm = (m: number): string => `${(m * 1000).toFixed(2)} mm`;

/** The arm table (#ik: reached, distance per TwoBoneIK) and the grip table (#grip: main hand
 * and palm distances per GripHolder). Built before the camera is framed: the HUD's width
 * places the picture. */
export class HudTables {
  private readonly arms: { entity: Entity; reached: HTMLTableCellElement; distance: HTMLTableCellElement }[] = [];
  private readonly gripRows: { e: Entity; hand: HTMLTableCellElement; main: HTMLTableCellElement; support: HTMLTableCellElement }[];

  constructor(private readonly world: World, { entities, holders, nameOf, label }: Loaded) {
    const tbody = el<HTMLTableElement>('ik').tBodies[0];
    for (const e of entities) {
      if (!world.has(e, TwoBoneIK)) continue;
      const name = label(e);
      const row = tbody.insertRow();
      row.id = `ik-${name}`;
      row.insertCell().textContent = name;
      const reached = row.insertCell();
      reached.className = 'reached';
      const distance = row.insertCell();
      distance.className = 'distance';
      this.arms.push({ entity: e, reached, distance });
    }
    const gripBody = el<HTMLTableElement>('grip').tBodies[0];
    this.gripRows = holders.map((e) => {
      const row = gripBody.insertRow();
      row.id = `grip-${nameOf.get(e) ?? e}`;
      row.insertCell().textContent = label(e);
      return { e, hand: row.insertCell(), main: row.insertCell(), support: row.insertCell() };
    });
    el('grip').hidden = holders.length === 0;
    el('ik').hidden = this.arms.length === 0;
    el<HTMLButtonElement>('switch-hand').hidden = holders.length === 0;
  }

  refresh(): void {
    for (const arm of this.arms) {
      const ik = this.world.get(arm.entity, TwoBoneIK);
      arm.reached.textContent = ik.reached ? 'yes' : 'no';
      arm.reached.classList.toggle('yes', ik.reached);
      arm.reached.classList.toggle('no', !ik.reached);
      arm.distance.textContent = mm(ik.distance);
    }
    for (const r of this.gripRows) {
      const h = this.world.get(r.e, GripHolder);
      r.hand.textContent = h.mainHand;
      r.main.textContent = mm(h.mainDistance);
      r.support.textContent = mm(h.supportDistance);
    }
  }
}

/** The Animator block (#animator) for the first Animator: a slider (#speed) on the first
 * blend-space parameter, a button per trigger (#trigger-NAME), the state (#anim-state). */
export class AnimatorControls {
  /** The slider's value once the user moved it: it wins over the scene timeline from then on. */
  private userSpeed: number | null = null;
  private readonly blend: { parameter: string; min: number; max: number } | null;
  private readonly speedEl = el<HTMLInputElement>('speed');

  constructor(private readonly world: World, readonly hero: Entity | null, changed: () => void) {
    const info = hero !== null ? world.anim.controllerInfo(world.get(hero, Animator).controller) : null;
    const blend = (this.blend = info?.states.find((st) => st.blend !== null)?.blend ?? null);
    const speedEl = this.speedEl;
    el('animator').hidden = hero === null;
    el('speed-row').hidden = blend === null;
    if (hero !== null && blend !== null) {
      el('speed-label').textContent = blend.parameter;
      speedEl.min = String(blend.min);
      speedEl.max = String(blend.max);
      speedEl.step = '0.05';
      speedEl.value = String(world.anim.param(hero, blend.parameter));
      speedEl.addEventListener('input', () => {
        this.userSpeed = Number(speedEl.value);
        if (this.owner() === null) world.anim.setParam(hero, blend.parameter, this.userSpeed);
        changed();
      });
    }
    for (const p of info?.params ?? []) {
      if (p.type !== 'trigger' || hero === null) continue;
      const b = document.createElement('button');
      b.type = 'button';
      b.id = `trigger-${p.name}`;
      b.textContent = p.name;
      b.addEventListener('click', () => world.anim.setTrigger(hero, p.name));
      el('triggers').appendChild(b);
    }
  }

  /** The component that sets the slider's parameter now (a NavAgent heading somewhere), or
   * null: the slider's then (a write would be refused with LB_ERR_BUSY). */
  private owner(): string | null {
    return this.hero !== null && this.blend !== null ? this.world.inputOwner(this.hero, { param: this.blend.parameter }) : null;
  }

  /** After a scene step (timeline included): the user's slider value is applied again, unless
   * a system owns the parameter. */
  afterStep(): void {
    if (this.hero !== null && this.blend !== null && this.userSpeed !== null && this.owner() === null) this.world.anim.setParam(this.hero, this.blend.parameter, this.userSpeed);
  }

  refresh(): void {
    if (this.hero === null) return;
    el('anim-state').textContent = this.world.get(this.hero, Animator).state;
    const owner = this.owner();
    this.speedEl.disabled = owner !== null;
    this.speedEl.title = owner !== null ? `set by its ${owner}` : '';
    if (this.blend !== null) {
      const v = this.world.anim.param(this.hero, this.blend.parameter) as number;
      el('speed-value').textContent = `${v.toFixed(2)}`;
      this.speedEl.value = String(v);
    }
  }
}

/** The scene's own description, and help for what this scene has. */
function describe(text: string, params: Params, help: string[]): void {
  el('scene-name').textContent = params.scene;
  const picker = el<HTMLSelectElement>('scene-select');
  for (const file of sceneFileNames()) picker.add(new Option(file, file, false, file === params.scene));
  picker.addEventListener('change', () => {
    location.search = `?scene=${encodeURIComponent(picker.value)}`;
  });
  el('description').textContent = (JSON.parse(text) as { description?: string }).description ?? '';
  el('description').hidden = params.editor;
  el('help').hidden = params.editor;
  el('help').textContent = help.join(' ');
}

function helpFor({ holders, animated }: Loaded, sv: SceneViews): string[] {
  const help: string[] = [];
  if (sv.markers.size > 0) help.push('Drag the gizmo to move the selected target; click a sphere (orange: target, violet: hint, teal: held object) to select it.');
  if (holders.length > 0) help.push('Grip: the held prop is drawn solid; palms yellow (main) and blue (support). "Switch hand" mirrors the hold.');
  if (animated.length > 0) help.push('Move the slider to set the blend parameter (your value then wins over the scene timeline); the buttons fire triggers.');
  if (sv.nav) help.push('Nav: click the navmesh (green) to send the selected agent there; the nav block switches agent and drive mode.');
  help.push('Orbit: drag; zoom: wheel.');
  return help;
}

/** What the HUD shows of the step loop and the grip editor. */
export interface HudStatus {
  paused(): boolean;
  /** The grip editor previews: the scene's timeline waits, stepping is off. */
  previewing(): boolean;
}

export class Hud {
  readonly animator: AnimatorControls;
  /** The plot panel: chosen numeric fields over the last 5 s of steps. */
  readonly plot: PlotPanel;

  constructor(
    private readonly loaded: Loaded,
    params: Params,
    private readonly sv: SceneViews,
    private readonly tables: HudTables,
    private readonly status: HudStatus,
  ) {
    const { world, scene, entities, animated } = loaded;
    describe(loaded.text, params, helpFor(loaded, sv));
    this.animator = new AnimatorControls(world, animated.length > 0 ? animated[0] : null, () => this.refresh());
    this.plot = new PlotPanel(world, scene.entities, el('plot'));
    for (const [name, e] of scene.entities) {
      if (world.has(e, GripHolder)) this.plot.add(`${name}.GripHolder.mainDistance`);
      else if (world.has(e, TwoBoneIK)) this.plot.add(`${name}.TwoBoneIK.distance`);
      if (this.plot.plotted().length > 0) break;
    }
    const openEditor = el<HTMLAnchorElement>('open-editor');
    openEditor.hidden = params.editor || !entities.some((e) => world.has(e, GripProfile));
    openEditor.href = `?scene=${encodeURIComponent(params.scene)}&editor=1`;
  }

  /** Shows the world as of the last step. */
  refresh(): void {
    const world = this.loaded.world;
    const previewing = this.status.previewing();
    const paused = this.status.paused();
    this.animator.refresh();
    el('hash').textContent = world.hash();
    el('steps').textContent = String(world.stepCount);
    el('mode').textContent = previewing ? '(grip preview)' : paused ? '(paused)' : '';
    const pauseBtn = el<HTMLButtonElement>('pause');
    pauseBtn.textContent = paused ? 'Play' : 'Pause';
    // the preview is authored, not played: the scene's timeline waits until it is left
    pauseBtn.disabled = previewing;
    el<HTMLButtonElement>('step').disabled = previewing;
    el<HTMLButtonElement>('switch-hand').disabled = previewing;
    this.tables.refresh();
    this.sv.nav?.refreshPanel();
  }
}
