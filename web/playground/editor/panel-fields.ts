/** The grip editor's panel fields rebuilt after every step: the edited hand's finger table
 * (#ed-fingers: three bends and a fan per finger, the thumb's opposition and gap) and one
 * box per grip surface (#ed-surface-NAME). Each field is one undoable edit. */
import { FINGER_NAMES, type FingerName } from '../../bridge/browser.js';
import { el } from '../page.js';
import { button, numberInput } from './dom.js';
import { shapeOf, type PoseDoc, type SurfaceDoc } from './grip-doc.js';
import type { GripEditor } from './grip-editor.js';
import type { HandEdits } from './hand-edits.js';

/** Puts the field `id` in the cell: the one being typed in, kept (so typing is not cut off),
 * or a new one from `make`. */
type Field = (c: HTMLTableCellElement, id: string, make: () => HTMLInputElement) => void;

/** The edited hand's finger table: bends and fan per finger, the thumb's opposition and gap;
 * the input being typed in is kept (moved into the new table), not rebuilt. */
export function fillFingerTable(p: PoseDoc, hands: HandEdits): void {
  el('ed-pose-kind').textContent = p.kind === 'def' ? `from '${p.base}', edited per joint` : `captured pose '${p.name}' (joint rotations; "start from pose" to edit)`;
  const focused = document.activeElement;
  const field: Field = (c, id, make) => {
    c.append(focused instanceof HTMLInputElement && focused.id === id ? focused : make());
  };
  const rows = FINGER_NAMES.map((f) => {
    const row = document.createElement('tr');
    row.insertCell().textContent = f;
    if (f === 'thumb' && p.kind === 'def') thumbCells(row, p, hands, field);
    else fingerCells(row, f, p, hands, field);
    return row;
  });
  el<HTMLTableElement>('ed-fingers').tBodies[0].replaceChildren(...rows);
}

/** The thumb: opposition (0..1) and gap (0..1) instead of bends. */
function thumbCells(row: HTMLTableRowElement, p: PoseDoc & { kind: 'def' }, hands: HandEdits, field: Field): void {
  const t = p.def.thumb ?? {};
  for (const key of ['opposition', 'gap'] as const) {
    const c = row.insertCell();
    c.title = `thumb ${key} (0..1)`;
    field(c, `ed-thumb-${key}`, () => numberInput(`ed-thumb-${key}`, t[key] ?? 0, 0.05, (x) => hands.setThumb(key, x)));
  }
}

/** A finger's three bends and its fan (degrees); empty cells for what the pose leaves out. */
function fingerCells(row: HTMLTableRowElement, f: FingerName, p: PoseDoc, hands: HandEdits, field: Field): void {
  const shape = p.kind === 'def' ? shapeOf(p.def, f) : null;
  for (let k = 0; k < 3; k++) {
    const c = row.insertCell();
    const v = shape?.bend?.[k];
    if (v !== undefined) field(c, `ed-bend-${f}-${k}`, () => numberInput(`ed-bend-${f}-${k}`, v, 1, (x) => hands.setBendField(f, k, x)));
  }
  const c = row.insertCell();
  const fan = shape?.fan;
  if (fan !== undefined) field(c, `ed-fan-${f}`, () => numberInput(`ed-fan-${f}`, fan, 1, (x) => hands.setFan(f, x)));
}

/** A GripSurface's box: name and remove button, shape and direction, radius, height,
 * box size and position (metres, the position in the object's frame). */
export function surfaceBox(ed: GripEditor, s: SurfaceDoc, i: number): HTMLElement {
  const box = document.createElement('div');
  box.className = 'surface';
  box.id = `ed-surface-${s.name}`;
  const title = document.createElement('div');
  title.className = 'mono';
  title.textContent = s.name;
  title.append(button(`ed-surface-del-${s.name}`, '×', `remove ${s.name}`, () => ed.edit((dd) => void dd.surfaces.splice(i, 1))));
  box.append(title);
  const sel = (field: 'shape' | 'direction', opts: string[]): HTMLSelectElement => {
    const x = document.createElement('select');
    x.id = `ed-surface-${s.name}-${field}`;
    for (const o of opts) x.add(new Option(o, o, false, s.data[field] === o));
    x.addEventListener('change', () => ed.edit((dd) => void ((dd.surfaces[i].data as Record<string, unknown>)[field] = x.value)));
    return x;
  };
  box.append(sel('shape', ['Cylinder', 'Capsule', 'Sphere', 'Box']), sel('direction', ['X', 'Y', 'Z']));
  // one row per quantity, metres (position: in the object's frame)
  const line = (label: string, fields: [string, (x: SurfaceDoc) => number, (x: SurfaceDoc, v: number) => void][]): void => {
    const row = document.createElement('div');
    const l = document.createElement('span');
    l.className = 'field';
    l.textContent = label;
    row.append(l);
    for (const [id, get, set] of fields) {
      const input = numberInput(`ed-surface-${s.name}-${id}`, get(s), 0.001, (v) => ed.edit((dd) => set(dd.surfaces[i], v)));
      input.title = `${s.name} ${id} (m)`;
      row.append(input);
    }
    box.append(row);
  };
  const axes = ['x', 'y', 'z'] as const;
  line('radius, height', [
    ['radius', (x) => x.data.radius, (x, v) => void (x.data.radius = v)],
    ['height', (x) => x.data.height, (x, v) => void (x.data.height = v)],
  ]);
  line('box size', axes.map((axis, k) => [`size.${axis}`, (x) => x.data.size[k], (x, v) => void (x.data.size[k] = v)]));
  line('position', axes.map((axis, k) => [`pos.${axis}`, (x) => x.position[k], (x, v) => void (x.position[k] = v)]));
  return box;
}
