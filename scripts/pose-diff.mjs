#!/usr/bin/env node
// Compares two `limber poses` dumps (float32 x y z per joint per step) and prints the largest
// joint position difference in metres, and where it is. Usage: node scripts/pose-diff.mjs A B
import { readFileSync } from 'node:fs';

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node scripts/pose-diff.mjs A.bin B.bin');
  process.exit(2);
}
const fa = new Float32Array(new Uint8Array(readFileSync(a)).buffer);
const fb = new Float32Array(new Uint8Array(readFileSync(b)).buffer);
if (fa.length !== fb.length || fa.length % 3 !== 0) {
  console.error(`pose-diff: ${a} has ${fa.length} floats, ${b} has ${fb.length}: not the same run`);
  process.exit(1);
}
let max = 0;
let at = -1;
let sum = 0;
for (let i = 0; i < fa.length; i += 3) {
  const d = Math.hypot(fa[i] - fb[i], fa[i + 1] - fb[i + 1], fa[i + 2] - fb[i + 2]);
  sum += d;
  if (!(d <= max)) {
    max = d;
    at = i / 3;
  }
}
const points = fa.length / 3;
console.log(
  `${points} joint positions: max difference ${(max * 1000).toFixed(4)} mm (point ${at}), ` +
    `mean ${((sum / Math.max(points, 1)) * 1000).toFixed(5)} mm`,
);
process.exit(Number.isFinite(max) ? 0 : 1);
