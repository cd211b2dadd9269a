/** The plot panel: chosen numeric component fields (output fields first: IK and grip
 * distances, reached flags, animator values) over the last seconds of world steps. Values
 * are read after every step; the x axis is the step count (60 per second). */
import type { ComponentInfo, Entity, World } from '../../bridge/browser.js';
import { button } from './dom.js';

const SCHEMA_F32 = 0, SCHEMA_U32 = 1, SCHEMA_BOOL = 2;
const COLORS = ['#ffd54f', '#4fc3f7', '#7bd88f', '#ff7043', '#b388ff', '#f48fb1'];

export interface PlotSeries {
  /** "entity.Component.field" */
  key: string;
  entity: Entity;
  component: ComponentInfo;
  field: string;
}

export class PlotPanel {
  private readonly series = new Map<string, { s: PlotSeries; values: { step: number; v: number }[] }>();
  private readonly available: PlotSeries[] = [];
  private readonly canvas: HTMLCanvasElement;
  private readonly picker: HTMLSelectElement;
  private readonly legend: HTMLElement;

  /** `entities`: named scene entities; `seconds`: the window shown. */
  constructor(
    private readonly world: World,
    entities: ReadonlyMap<string, Entity>,
    root: HTMLElement,
    private readonly seconds = 5,
    private readonly stepsPerSecond = 60,
  ) {
    for (const [name, e] of entities) {
      for (const c of world.components) {
        if (!world.has(e, { name: c.name } as never)) continue;
        const fields = c.fields.filter((f) => f.type === SCHEMA_F32 || f.type === SCHEMA_U32 || f.type === SCHEMA_BOOL);
        // output fields first: they are what the systems did
        fields.sort((a, b) => Number(b.readonly) - Number(a.readonly));
        for (const f of fields) this.available.push({ key: `${name}.${c.name}.${f.name}`, entity: e, component: c, field: f.name });
      }
    }
    this.picker = document.createElement('select');
    this.picker.id = 'plot-pick';
    this.picker.add(new Option('+ value to plot', ''));
    for (const s of this.available) this.picker.add(new Option(s.key, s.key));
    this.picker.addEventListener('change', () => {
      if (this.picker.value) this.add(this.picker.value);
      this.picker.value = '';
    });
    this.canvas = document.createElement('canvas');
    this.canvas.id = 'plot-canvas';
    this.canvas.width = 280;
    this.canvas.height = 90;
    this.legend = document.createElement('div');
    this.legend.id = 'plot-legend';
    root.append(this.picker, this.canvas, this.legend);
  }

  /** Keys that can be plotted. */
  keys(): string[] {
    return this.available.map((s) => s.key);
  }

  plotted(): string[] {
    return [...this.series.keys()];
  }

  add(key: string): void {
    const s = this.available.find((a) => a.key === key);
    if (!s) throw new Error(`cannot plot '${key}'`);
    if (this.series.has(key)) return;
    this.series.set(key, { s, values: [] });
    this.sample();
  }

  remove(key: string): void {
    this.series.delete(key);
    this.draw();
  }

  /** The samples of one series (step, value), oldest first. */
  values(key: string): { step: number; v: number }[] {
    return [...(this.series.get(key)?.values ?? [])];
  }

  /** Reads every plotted value as of the world's current step (call after a step). */
  sample(): void {
    const step = this.world.stepCount;
    for (const { s, values } of this.series.values()) {
      if (!this.world.alive(s.entity) || !this.world.has(s.entity, { name: s.component.name } as never)) continue;
      const data = this.world.get(s.entity, { name: s.component.name } as never) as Record<string, unknown>;
      const raw = data[s.field];
      const v = typeof raw === 'boolean' ? Number(raw) : Number(raw);
      const lastStep = values.length > 0 ? values[values.length - 1].step : -Infinity;
      if (step < lastStep) values.length = 0; // the world went back (preview left, undo): start over
      if (step === lastStep) values[values.length - 1].v = v;
      else values.push({ step, v });
      const from = step - this.seconds * this.stepsPerSecond;
      while (values.length > 0 && values[0].step < from) values.shift();
    }
    this.draw();
  }

  private draw(): void {
    const g = this.canvas.getContext('2d');
    if (!g) return;
    const { width: w, height: h } = this.canvas;
    g.fillStyle = '#14171c';
    g.fillRect(0, 0, w, h);
    g.strokeStyle = '#2e343d';
    g.strokeRect(0.5, 0.5, w - 1, h - 1);
    const step = this.world.stepCount;
    const span = this.seconds * this.stepsPerSecond;
    this.legend.replaceChildren();
    let k = 0;
    for (const [key, { values }] of this.series) {
      const color = COLORS[k++ % COLORS.length];
      let lo = Infinity, hi = -Infinity;
      for (const p of values) {
        lo = Math.min(lo, p.v);
        hi = Math.max(hi, p.v);
      }
      if (hi - lo < 1e-9) {
        hi += 0.5;
        lo -= 0.5;
      }
      g.strokeStyle = color;
      g.beginPath();
      values.forEach((p, i) => {
        const x = w - 2 - ((step - p.step) / span) * (w - 4);
        const y = h - 4 - ((p.v - lo) / (hi - lo)) * (h - 8);
        if (i === 0) g.moveTo(x, y);
        else g.lineTo(x, y);
      });
      g.stroke();
      const row = document.createElement('div');
      row.className = 'mono';
      row.style.color = color;
      const last = values.length > 0 ? values[values.length - 1].v : NaN;
      row.textContent = `${key} ${Number.isFinite(last) ? last.toPrecision(4) : '—'} `;
      row.append(button('', '×', `stop plotting ${key}`, () => this.remove(key)));
      this.legend.append(row);
    }
  }
}
