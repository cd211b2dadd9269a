/** The editor panels' controls, made one way: a button, a number field, a download. Elements already
 * on the page are found with page.ts `el(id)`. */
import { round } from './grip-doc.js';

/** A button (`id` '' leaves it without one) that calls `onClick`. */
export function button(id: string, text: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  if (id !== '') b.id = id;
  b.textContent = text;
  b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

/** A number field showing `value` (3 decimals); `onChange` gets each finite number typed in
 * (on change: Enter or leaving the field), never an empty or invalid entry. */
export function numberInput(id: string, value: number, step: number, onChange: (v: number) => void): HTMLInputElement {
  const i = document.createElement('input');
  i.type = 'number';
  i.id = id;
  i.step = String(step);
  i.value = String(round(value, 3));
  i.addEventListener('change', () => {
    const v = Number(i.value);
    if (i.value.trim() !== '' && Number.isFinite(v)) onChange(v);
  });
  return i;
}

/** Offers `text` as a file download named `filename`. */
export function download(filename: string, text: string, type = 'application/json'): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
