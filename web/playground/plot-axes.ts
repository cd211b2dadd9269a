/** Axes for the plot panel (editor/plot.ts draws the lines): the time axis under the canvas
 * (seconds before the last step, 60 steps a second), the first series' range at the top and
 * bottom of the canvas in its unit (each series is scaled to its own range, as the caption
 * says), and a unit after each legend row. Units come from the field's schema text (metres,
 * degrees, seconds ...). */
import type { World } from '../bridge/browser.js';
import type { PlotPanel } from './editor/plot.js';

const SCHEMA_BOOL = 2;

/** The unit a component field is in, from its schema: "m", "m/s", "°", "s", "0–1" or "". */
export function fieldUnit(world: World, key: string): string {
  const [, component, field] = key.split('.');
  const info = world.components.find((c) => c.name === component)?.byName.get(field ?? '');
  if (!info) return '';
  if (info.type === SCHEMA_BOOL) return '0/1';
  const doc = info.doc;
  if (/metres per second|m\/s/.test(doc)) return 'm/s';
  if (/degrees|°/.test(doc)) return '°';
  if (/radians/.test(doc)) return 'rad';
  if (/metres|\bm\b/.test(doc)) return 'm';
  if (/seconds|\bs\b/.test(doc)) return 's';
  if (/0\.\.1|\[0, 1\]|0 \.\. 1|weight/.test(doc)) return '0–1';
  return '';
}

/** A number short enough for an axis label. */
function short(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 100) return v.toFixed(0);
  if (a >= 1) return v.toFixed(2);
  if (a >= 0.001) return v.toFixed(3);
  return v.toExponential(1);
}

export class PlotAxes {
  private readonly top = document.createElement('span');
  private readonly bottom = document.createElement('span');
  private readonly caption = document.createElement('div');

  constructor(
    private readonly world: World,
    private readonly plot: PlotPanel,
    root: HTMLElement,
    seconds = 5,
  ) {
    const canvas = root.querySelector('canvas');
    if (!canvas) throw new Error('the plot panel has no canvas');
    const frame = document.createElement('div');
    frame.className = 'plot-frame';
    canvas.replaceWith(frame);
    frame.append(canvas);
    this.top.className = 'plot-y plot-y-top';
    this.bottom.className = 'plot-y plot-y-bottom';
    const ticks = document.createElement('div');
    ticks.className = 'plot-x';
    for (const t of [-seconds, -seconds / 2, 0]) {
      const s = document.createElement('span');
      s.textContent = t === 0 ? 'now' : `${t} s`;
      ticks.append(s);
    }
    this.caption.className = 'help plot-caption';
    this.caption.id = 'plot-axes';
    frame.append(this.top, this.bottom, ticks);
    frame.after(this.caption);
  }

  /** After the plot sampled: the first series' range and every series' unit. */
  refresh(): void {
    const keys = this.plot.plotted();
    const frame = this.top.parentElement;
    // (the frame's CSS display would win over the hidden attribute)
    if (frame) frame.style.display = keys.length === 0 ? 'none' : '';
    this.caption.hidden = keys.length === 0;
    if (keys.length === 0) return;
    const first = keys[0]!;
    const unit = fieldUnit(this.world, first);
    let lo = Infinity, hi = -Infinity;
    for (const p of this.plot.values(first)) {
      lo = Math.min(lo, p.v);
      hi = Math.max(hi, p.v);
    }
    // a 0-1 quantity has no unit to print after its values
    const u = unit && unit !== '0–1' ? ` ${unit}` : '';
    const flat = hi - lo < 1e-9;
    // the plot's own scaling: top and bottom are the series' extremes; a flat one is drawn mid-height
    this.top.textContent = !Number.isFinite(hi) ? '' : flat ? '' : `${short(hi)}${u}`;
    this.bottom.textContent = !Number.isFinite(lo) ? '' : flat ? `${short(lo)}${u} (constant, drawn mid-height)` : `${short(lo)}${u}`;
    const name = first.split('.').pop() ?? first;
    this.caption.textContent = `x: time, s (60 steps/s) · y: ${name}${unit === '0–1' ? ' (0–1)' : u ? `, ${unit}` : ''}${keys.length > 1 ? '; each line scaled to its own range' : ''}`;
    // the legend rows (plot.ts) name the key and the last value: add the unit
    const legend = this.plot.plotted().length > 0 ? document.getElementById('plot-legend') : null;
    legend?.querySelectorAll('div').forEach((row, i) => {
      const k = keys[i];
      if (!k || row.dataset.unit !== undefined) return;
      const unitOf = fieldUnit(this.world, k);
      row.dataset.unit = unitOf;
      if (unitOf && unitOf !== '0–1') row.firstChild?.after(document.createTextNode(`${unitOf} `));
    });
  }
}
