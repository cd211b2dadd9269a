#!/usr/bin/env node
// Include-graph check for the C core.
//
//   node scripts/check-includes.mjs [--root DIR]
//
// Reads every `#include "..."` (quoted includes only; comments are skipped) in
// wasm/src/**/*.{c,h}, wasm/include/limber/*.h and wasm/exports/**/*.{c,h}, resolves each one
// relative to the including file, then to wasm/include/ (the only -I the core has
// besides cglm and cJSON). Includes that resolve to neither (cJSON.h, ...) are external
// and left out. The file-level graph has an edge from every file to each file it
// includes (a .c file's includes are edges from that .c file).
//
// Fails (exit 1) naming every cycle (elementary circuit) as its chain of files,
// `a.h -> b.h -> a.h`, and every folder-level edge (wasm/src/<folder>, wasm/src,
// wasm/include/limber, wasm/exports) that FOLDER_EDGES below does not allow: a new
// dependency between modules fails until it is added there with its reason (and to
// docs/architecture.md). Else prints the folder-level graph with edge counts and
// `include graph: N files, M edges, no cycle` and exits 0.
// --root DIR checks another tree laid out the same way (default: this repository).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_CYCLES = 1000; // printed in full up to this many; more are counted

// The folder-level dependencies the core may have, each with its reason. Every folder may
// include the public headers (wasm/include/limber); every module folder the layers below
// all modules (CORE). A module uses another module's internal header only where listed.
const CORE = ['wasm/src/base', 'wasm/src/math', 'wasm/src/geom', 'wasm/src/world'];
const MODULES = ['rig', 'anim', 'ik', 'grip', 'collide', 'nav', 'controller', 'interact', 'vault', 'io'].map((m) => `wasm/src/${m}`);
const FOLDER_EDGES = {
  'wasm/src/math -> wasm/src/base': 'the result codes and diagnostics every layer reports with',
  'wasm/src/geom -> wasm/src/math': 'shapes are made of vectors and transforms',
  'wasm/src/geom -> wasm/src/base': 'result codes',
  'wasm/src/world -> wasm/src/base': 'allocation, arrays, names, diagnostics',
  'wasm/src/world -> wasm/src/math': 'entity transforms and the hierarchy',
  'wasm/src -> wasm/src/world': 'modules.c registers every module with the world',
  'wasm/src/rig -> wasm/src': 'modules.h: the module list (the module ids)',
  'wasm/src/collide -> wasm/src': 'modules.h: the module list (the module ids)',
  'wasm/src/controller -> wasm/src': 'modules.h: the module list (the module ids)',
  'wasm/src/nav -> wasm/src': 'modules.h: the module list (the module ids)',
  'wasm/src/anim -> wasm/src/rig': 'rig_internal.h: the skeletons and pose buffers the Animator writes',
  'wasm/src/ik -> wasm/src/rig': 'rig_internal.h: the model pose the two-bone job reads and writes',
  'wasm/src/grip -> wasm/src/rig': 'rig_internal.h: the pose the grip reads and writes, joint lookup',
  'wasm/src/interact -> wasm/src/grip': 'grip_internal.h: hand finding, the palm frame, the arm reach, which hands hold (lb_grip_hand_holding)',
  'wasm/src/interact -> wasm/src/collide': "collide_internal.h: one collider's closest point",
  'wasm/src/controller -> wasm/src/collide': "collide_internal.h: the colliders near a move found once for all its casts (cl_region); the tree synced once before the parallel moves (cl_sync)",
  'wasm/src/vault -> wasm/src/grip': 'grip_internal.h: hand finding, the palm frame, the arm reach, which hands hold, the support hand hand-over (lb_grip_release_support)',
  'wasm/src/vault -> wasm/src/collide': "collide_internal.h: the colliders near the probe's forward casts (cl_region_gather): none, the casts are skipped; else they test just those; the tree synced once before the parallel probes (cl_sync)",
  'wasm/src/vault -> wasm/src/anim': "animator_internal.h: the vault state's clip length, the trigger parameter",
  'wasm/src/nav -> wasm/src/anim': "animator_internal.h: the locomotion parameter the agent writes, cached by (controller, name)",
  'wasm/src/io -> wasm/src/anim': 'animator_internal.h: scene timelines set and restore Animator parameters',
  'wasm/exports/mt -> wasm/exports': 'exports.h: LBW_EXPORT',
  'wasm/exports/mt -> wasm/src/base': "task_pool.h: limber-mt.wasm's host pool, whose workers the bridge runs (lbw_pool_work)",
  'wasm/exports/mt -> wasm/src/world': "world_core.h: the world's pool (lbw_world_pool)",
};
function folderEdgeAllowed(from, to) {
  if (to === 'wasm/include/limber') return true;
  if (MODULES.includes(from) && CORE.includes(to)) return true;
  return Object.hasOwn(FOLDER_EDGES, `${from} -> ${to}`);
}

function parseArgs(argv) {
  let root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--root' && argv[i + 1] !== undefined) root = path.resolve(argv[++i]);
    else {
      console.error('usage: node scripts/check-includes.mjs [--root DIR]');
      process.exit(argv[i] === '--help' || argv[i] === '-h' ? 0 : 2);
    }
  }
  return { root };
}

function walk(dir, exts, recursive) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (recursive) out.push(...walk(p, exts, true));
    } else if (exts.some((x) => e.name.endsWith(x))) out.push(p);
  }
  return out;
}

// The text with comments blanked (newlines kept), string and char literals intact, so
// a commented-out or documented #include is not an edge.
function stripComments(src) {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? src.length : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '/' && n === '/') {
      let stop = src.indexOf('\n', i);
      if (stop < 0) stop = src.length;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

const INCLUDE = /^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"/gm;

function quotedIncludes(file) {
  const text = stripComments(fs.readFileSync(file, 'utf8'));
  return [...text.matchAll(INCLUDE)].map((m) => m[1]);
}

// Module of a file (relative path with '/'): wasm/src/<folder>, or its own folder.
function moduleOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'wasm' && parts[1] === 'src' && parts.length > 3) return parts.slice(0, 3).join('/');
  return parts.slice(0, -1).join('/') || '.';
}

// Tarjan's strongly connected components (iterative); returns arrays of node ids.
function sccs(n, adj) {
  const index = new Array(n).fill(-1);
  const low = new Array(n).fill(0);
  const onStack = new Array(n).fill(false);
  const stack = [];
  const out = [];
  let next = 0;
  for (let s = 0; s < n; ++s) {
    if (index[s] >= 0) continue;
    const work = [[s, 0]];
    index[s] = low[s] = next++;
    stack.push(s);
    onStack[s] = true;
    while (work.length) {
      const top = work[work.length - 1];
      const [v, k] = top;
      if (k < adj[v].length) {
        top[1]++;
        const w = adj[v][k];
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = true;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
      } else {
        work.pop();
        if (work.length) {
          const u = work[work.length - 1][0];
          low[u] = Math.min(low[u], low[v]);
        }
        if (low[v] === index[v]) {
          const comp = [];
          let w;
          do {
            w = stack.pop();
            onStack[w] = false;
            comp.push(w);
          } while (w !== v);
          out.push(comp);
        }
      }
    }
  }
  return out;
}

// Every elementary circuit (Johnson's algorithm, restricted to each non-trivial strongly
// connected component and started from its smallest node, so each circuit is found
// once, beginning at its smallest node). Stops collecting after `limit`; returns
// { cycles, total }.
function elementaryCycles(n, adj, limit) {
  const cycles = [];
  let total = 0;
  for (const comp of sccs(n, adj)) {
    const inComp = new Set(comp);
    const selfLoop = comp.length === 1 && adj[comp[0]].includes(comp[0]);
    if (comp.length < 2 && !selfLoop) continue;
    const sorted = [...comp].sort((a, b) => a - b);
    for (const start of sorted) {
      // Subgraph: nodes of this component >= start.
      const allowed = (v) => inComp.has(v) && v >= start;
      const blocked = new Set();
      const B = new Map();
      const pathStack = [];
      const unblock = (u) => {
        const todo = [u];
        while (todo.length) {
          const x = todo.pop();
          if (!blocked.has(x)) continue;
          blocked.delete(x);
          for (const y of B.get(x) ?? []) todo.push(y);
          B.set(x, new Set());
        }
      };
      // Iterative circuit(v) with explicit frames.
      const frames = [{ v: start, k: 0, found: false }];
      pathStack.push(start);
      blocked.add(start);
      while (frames.length) {
        const f = frames[frames.length - 1];
        const succ = adj[f.v];
        if (f.k < succ.length) {
          const w = succ[f.k++];
          if (!allowed(w)) continue;
          if (w === start) {
            total++;
            if (cycles.length < limit) cycles.push([...pathStack, start]);
            f.found = true;
          } else if (!blocked.has(w)) {
            pathStack.push(w);
            blocked.add(w);
            frames.push({ v: w, k: 0, found: false });
          }
        } else {
          frames.pop();
          if (f.found) unblock(f.v);
          else {
            for (const w of succ) {
              if (!allowed(w)) continue;
              if (!B.has(w)) B.set(w, new Set());
              B.get(w).add(f.v);
            }
          }
          pathStack.pop();
          if (frames.length && f.found) frames[frames.length - 1].found = true;
        }
      }
    }
  }
  return { cycles, total };
}

function main() {
  const { root } = parseArgs(process.argv.slice(2));
  const includeDir = path.join(root, 'wasm', 'include');
  const files = [
    ...walk(path.join(root, 'wasm', 'src'), ['.c', '.h'], true),
    ...walk(path.join(includeDir, 'limber'), ['.h'], false),
    ...walk(path.join(root, 'wasm', 'exports'), ['.c', '.h'], true),
  ]
    .map((f) => path.resolve(f))
    .sort();
  const rel = (f) => path.relative(root, f).split(path.sep).join('/');
  const id = new Map(files.map((f, i) => [f, i]));
  const names = files.map(rel);
  const adj = files.map(() => []);
  let edges = 0;
  const unscanned = new Set(); // resolved files outside the scanned set
  for (const [i, f] of files.entries()) {
    const seen = new Set();
    for (const inc of quotedIncludes(f)) {
      const candidates = [path.resolve(path.dirname(f), inc), path.resolve(includeDir, inc)];
      const target = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
      if (!target) continue; // external (cJSON.h) or missing: the compiler reports those
      if (!id.has(target)) {
        unscanned.add(rel(target));
        continue;
      }
      const j = id.get(target);
      if (seen.has(j)) continue;
      seen.add(j);
      adj[i].push(j);
      ++edges;
    }
  }

  // Folder-level summary (informational).
  const modules = new Map(); // module -> Map(dep module -> edge count)
  for (const [i, deps] of adj.entries()) {
    const m = moduleOf(names[i]);
    if (!modules.has(m)) modules.set(m, new Map());
    for (const j of deps) {
      const d = moduleOf(names[j]);
      if (d === m) continue;
      modules.get(m).set(d, (modules.get(m).get(d) ?? 0) + 1);
    }
  }
  const mods = [...modules.keys()].sort();
  console.log('folder-level includes (n = file-level edges):');
  const width = Math.max(...mods.map((m) => m.length));
  for (const m of mods) {
    const deps = [...modules.get(m).entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    console.log(`  ${m.padEnd(width)} -> ${deps.length ? deps.map(([d, c]) => `${d} (${c})`).join(', ') : '(none)'}`);
  }
  const badEdges = [];
  for (const m of mods) for (const d of modules.get(m).keys()) if (!folderEdgeAllowed(m, d)) badEdges.push(`${m} -> ${d}`);
  const modId = new Map(mods.map((m, i) => [m, i]));
  const modAdj = mods.map((m) => [...modules.get(m).keys()].map((d) => modId.get(d)).filter((x) => x !== undefined));
  const modCycles = elementaryCycles(mods.length, modAdj, MAX_CYCLES);
  if (modCycles.total) {
    console.log(`folder-level cycles: ${modCycles.total}`);
    for (const c of modCycles.cycles) console.log(`  ${c.map((x) => mods[x]).join(' -> ')}`);
  } else {
    console.log('folder-level cycles: none');
  }
  if (unscanned.size) {
    console.log(`included but outside the scanned folders (not graphed): ${[...unscanned].sort().join(', ')}`);
  }

  for (const e of badEdges) console.log(`folder edge not allowed: ${e} (add it to FOLDER_EDGES in scripts/check-includes.mjs with its reason, and to docs/architecture.md)`);
  const { cycles, total } = elementaryCycles(files.length, adj, MAX_CYCLES);
  if (badEdges.length && !total) {
    console.log(`include graph: ${files.length} files, ${edges} edges, no cycle; ${badEdges.length} folder edge${badEdges.length === 1 ? '' : 's'} not allowed`);
    process.exit(1);
  }
  if (total) {
    for (const c of cycles) console.log(`include cycle: ${c.map((x) => names[x]).join(' -> ')}`);
    if (total > cycles.length) console.log(`... and ${total - cycles.length} more cycles`);
    console.log(`include graph: ${files.length} files, ${edges} edges, ${total} cycle${total === 1 ? '' : 's'}`);
    process.exit(1);
  }
  console.log(`include graph: ${files.length} files, ${edges} edges, no cycle`);
}

main();
