/** The HUD (#hud): the IK and grip tables, the Animator block, hash, step count and pace, the
 * scene picker, the scene's description (its first sentences, "more" for the rest) and help for
 * the controls this scene has, the plot panel with its axes and the grip editor link. The
 * module blocks (interaction, vault, nav) come with their views (scene-views.ts). */
import { Animator, GripHolder, GripProfile, NavAgent, TwoBoneIK, Vault, type Entity, type World } from '../bridge/browser.js';
import { PlotPanel } from './editor/plot.js';
import type { LoopRate } from './loop.js';
import { el, type Params } from './page.js';
import { PlotAxes } from './plot-axes.js';
import { sceneFileNames, type Loaded } from './scene-load.js';
import type { SceneViews } from './scene-views.js';

const mm = (m: number): string => `${(m * 1000).toFixed(2)} mm`;

/** Holders listed one row each; more share one row (#grip-all) with the worst gaps. */
const GRIP_ROWS_MAX = 4;

/** One row of the grip table: the holders it reports and its cells. */
interface GripRow {
  holders: Entity[];
  cells: { hand: HTMLTableCellElement; main: HTMLTableCellElement; support: HTMLTableCellElement };
}

/** The arm table (#ik: reached, distance per TwoBoneIK) and the grip table (#grip: main hand
 * and palm distances per GripHolder). Built before the camera is framed: the HUD's width
 * places the picture. */
export class HudTables {
  private readonly arms: { entity: Entity; reached: HTMLTableCellElement; distance: HTMLTableCellElement }[] = [];
  private readonly gripRows: GripRow[];

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
    const row = (id: string, name: string): GripRow['cells'] => {
      const r = gripBody.insertRow();
      r.id = id;
      r.insertCell().textContent = name;
      return { hand: r.insertCell(), main: r.insertCell(), support: r.insertCell() };
    };
    // A crowd's holders share one row (the worst gaps): a row each would outgrow the page.
    this.gripRows =
      holders.length > GRIP_ROWS_MAX
        ? [{ holders: [...holders], cells: row('grip-all', `${holders.length} holders, worst`) }]
        : holders.map((e) => ({ holders: [e], cells: row(`grip-${nameOf.get(e) ?? e}`, label(e)) }));
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
      const hs = r.holders.map((e) => this.world.get(e, GripHolder));
      const hands = new Set(hs.map((h) => h.mainHand));
      r.cells.hand.textContent = hands.size === 1 ? hs[0]!.mainHand : 'both';
      r.cells.main.textContent = mm(Math.max(...hs.map((h) => h.mainDistance)));
      r.cells.support.textContent = mm(Math.max(...hs.map((h) => h.supportDistance)));
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
  /** Trigger buttons shown (#trigger-NAME). */
  readonly triggers: string[] = [];

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
    // A Vault component owns its trigger: its panel's button requests a vault (probe first);
    // firing the trigger here would play the clip without one.
    const vaultTrigger = hero !== null && world.has(hero, Vault) ? world.get(hero, Vault).trigger : null;
    for (const p of info?.params ?? []) {
      if (p.type !== 'trigger' || hero === null || p.name === vaultTrigger) continue;
      const b = document.createElement('button');
      b.type = 'button';
      b.id = `trigger-${p.name}`;
      b.textContent = p.name;
      b.title = `fires the Animator trigger '${p.name}' (world.anim.setTrigger)`;
      b.addEventListener('click', () => world.anim.setTrigger(hero, p.name));
      el('triggers').appendChild(b);
      this.triggers.push(p.name);
    }
  }

  /** The slider's parameter, or null without a slider. */
  get sliderParameter(): string | null {
    return this.hero !== null ? (this.blend?.parameter ?? null) : null;
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

/** Words of a description shown before "more". */
const SHORT_WORDS = 30;

/** The scene's description: its first sentences up to SHORT_WORDS words, the rest behind a
 * "more" toggle (#description-more), so the controls stay above the fold. */
function showDescription(text: string): void {
  const box = el('description');
  box.replaceChildren();
  const words = text.split(/\s+/).filter((w) => w);
  if (words.length <= SHORT_WORDS) {
    box.textContent = text;
    return;
  }
  // cut after the last sentence end within the limit, else at the limit
  let cut = SHORT_WORDS;
  for (let i = SHORT_WORDS - 1; i >= 12; i--) {
    if (/[.!?]$/.test(words[i]!)) {
      cut = i + 1;
      break;
    }
  }
  const head = document.createElement('span');
  head.textContent = words.slice(0, cut).join(' ') + (cut === SHORT_WORDS ? ' …' : '');
  const rest = document.createElement('span');
  rest.textContent = ` ${words.slice(cut).join(' ')}`;
  rest.hidden = true;
  const more = document.createElement('button');
  more.type = 'button';
  more.id = 'description-more';
  more.className = 'link';
  more.textContent = 'more';
  more.addEventListener('click', () => {
    rest.hidden = !rest.hidden;
    more.textContent = rest.hidden ? 'more' : 'less';
  });
  box.append(head, rest, ' ', more);
}

/** The scene's own description, the picker, and help for what this scene has. */
function describe(text: string, params: Params, help: string[]): void {
  el('scene-name').textContent = params.scene;
  const picker = el<HTMLSelectElement>('scene-select');
  for (const file of sceneFileNames()) picker.add(new Option(file, file, false, file === params.scene));
  picker.addEventListener('change', () => {
    location.search = `?scene=${encodeURIComponent(picker.value)}`;
  });
  showDescription((JSON.parse(text) as { description?: string }).description ?? '');
  el('description').hidden = params.editor;
  el('help').hidden = params.editor;
  const list = el('help');
  list.replaceChildren(...help.map((h) => Object.assign(document.createElement('div'), { textContent: h })));
}

/** One line per control this scene has (each names an element the page shows). */
export function helpFor({ world, holders }: Loaded, sv: SceneViews, animator: AnimatorControls): string[] {
  const help: string[] = [];
  const ik = [...sv.markers.keys()].some((e) => !world.has(e, GripProfile));
  if (sv.markers.size > 0) help.push(ik ? 'Click a sphere (orange target, violet hint, teal held object), then drag the gizmo to move it.' : 'Click the held object\'s teal sphere, then drag the gizmo to move it.');
  if (holders.length > 0) help.push('Switch hand: the hold mirrors onto the other hand.');
  const slider = animator.sliderParameter;
  const agent = animator.hero !== null && world.has(animator.hero, NavAgent);
  if (slider !== null) help.push(`The ${slider} slider sets the blend parameter (your value then wins over the timeline${agent ? '; greyed while the nav agent sets it' : ''}).`);
  if (animator.triggers.length > 0) help.push(`Trigger button${animator.triggers.length === 1 ? '' : 's'} (${animator.triggers.join(', ')}): fire${animator.triggers.length === 1 ? 's' : ''} the Animator trigger, no checks.`);
  if (sv.vault) help.push('Vault button: requests a vault over what is ahead; the reason shows when refused.');
  if (sv.nav) help.push('Click the floor to send the selected nav agent there.');
  help.push('Drag to orbit, wheel to zoom, right-drag to pan.');
  return help;
}

/** What the HUD shows of the step loop and the grip editor. */
export interface HudStatus {
  paused(): boolean;
  /** The step loop's pace (loop.ts). */
  rate(): LoopRate;
  /** The grip editor previews: the scene's timeline waits, stepping is off. */
  previewing(): boolean;
}

export class Hud {
  readonly animator: AnimatorControls;
  /** The plot panel: chosen numeric fields over the last 5 s of steps. */
  readonly plot: PlotPanel;
  private readonly axes: PlotAxes;

  constructor(
    private readonly loaded: Loaded,
    params: Params,
    private readonly sv: SceneViews,
    private readonly tables: HudTables,
    private readonly status: HudStatus,
  ) {
    const { world, scene, entities, animated } = loaded;
    el('threads').textContent = `${world.threads} ${world.threads === 1 ? 'thread' : 'threads'}`;
    this.animator = new AnimatorControls(world, animated.length > 0 ? animated[0] : null, () => this.refresh());
    describe(loaded.text, params, helpFor(loaded, sv, this.animator));
    this.plot = new PlotPanel(world, scene.entities, el('plot'));
    const first = defaultPlot(world, scene.entities);
    if (first !== null) this.plot.add(first);
    this.axes = new PlotAxes(world, this.plot, el('plot'));
    const openEditor = el<HTMLAnchorElement>('open-editor');
    openEditor.hidden = params.editor || !entities.some((e) => world.has(e, GripProfile));
    openEditor.href = `?scene=${encodeURIComponent(params.scene)}&editor=1`;
    this.fit();
  }

  /** The HUD fits the page at 1280 x 720 and below: when its content would scroll, the plot
   * panel folds (its summary stays: a click opens it). */
  private fit(): void {
    const hud = el('hud');
    if (hud.scrollHeight > hud.clientHeight + 1) el<HTMLDetailsElement>('plot-box').open = false;
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
    this.showRate(paused || previewing ? null : this.status.rate());
    this.axes.refresh();
    const pauseBtn = el<HTMLButtonElement>('pause');
    pauseBtn.textContent = paused ? 'Play' : 'Pause';
    // the preview is authored, not played: the scene's timeline waits until it is left
    pauseBtn.disabled = previewing;
    el<HTMLButtonElement>('step').disabled = previewing;
    el<HTMLButtonElement>('switch-hand').disabled = previewing;
    this.tables.refresh();
    this.sv.nav?.refreshPanel();
    this.sv.interaction?.panel.refresh();
    this.sv.vault?.panel.refresh();
  }

  /** Steps per second (60 when the simulation keeps up), frames per second and frame time, and
   * the "simulation behind" flag when time was dropped. */
  private showRate(r: LoopRate | null): void {
    const rate = el('rate');
    const behind = el('behind');
    if (r === null || r.framesPerSecond === 0) {
      rate.textContent = '';
      behind.hidden = true;
      return;
    }
    rate.textContent = `${r.stepsPerSecond.toFixed(0)} steps/s · ${r.framesPerSecond.toFixed(r.framesPerSecond < 10 ? 1 : 0)} fps (${(1000 / r.framesPerSecond).toFixed(0)} ms)`;
    behind.hidden = r.behind < 0.02;
    behind.textContent = `behind: runs at ${(100 * (1 - r.behind)).toFixed(0)} % of real time`;
    behind.title = `The simulation dropped ${(100 * r.behind).toFixed(0)} % of real time: frames came too slowly to run every step they owed.`;
  }
}

/** The field plotted at load: what the scene is about (a grip's or an arm's distance to its
 * anchor or target, a vault's hand weight, a nav agent's remaining distance), or none. */
function defaultPlot(world: World, entities: ReadonlyMap<string, Entity>): string | null {
  for (const [name, e] of entities) {
    if (world.has(e, GripHolder)) return `${name}.GripHolder.mainDistance`;
    if (world.has(e, TwoBoneIK)) return `${name}.TwoBoneIK.distance`;
    if (world.has(e, Vault)) return `${name}.Vault.handWeight`;
    if (world.has(e, NavAgent)) return `${name}.NavAgent.remainingDistance`;
  }
  return null;
}
