#!/usr/bin/env node
// Function-length check: a function that does a whole system in one body is hard to read and
// to change; the model is ozz's BlendingJob::Run(), a short driver that calls named stages.
//
//   node scripts/check-function-length.mjs [--max N] [--top K]
//
// C: every function defined in wasm/src, wasm/exports and wasm/cli (*.c, *.h), found by a
// brace-matching scan with comments, strings, character literals and preprocessor lines
// blanked: a function is a `{` at file level whose header (the text since the previous
// top-level `;` or `}`) starts at column 0 and ends in a parameter list `(...)`.
// TypeScript: every function declaration, method, accessor, constructor, function
// expression and arrow function in web/**/*.ts (not web/bridge/components.generated.ts,
// which is generated), found with the TypeScript compiler's own parser
// (node_modules/typescript, a devDependency).
//
// A function's length is its lines from the first line of its definition to its closing
// brace, both included. Prints the K longest (default 10) of each language as
// `file:line  length  name`, then fails (exit 1) naming every function longer than N lines
// (default 120) that is not in EXCEPTIONS below, and every exception that no longer applies
// (the function is gone or no longer too long), so the list only holds what is still owed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// `file:function` -> why it may stay over the limit for now. Anonymous TypeScript functions
// are named `<arrow>`/`<function>` with the name of what they are assigned to when there is
// one (`const onKey = () => {...}` is `onKey`).
const EXCEPTIONS = {};

const C_DIRS = ['wasm/src', 'wasm/exports', 'wasm/cli'];
const TS_DIRS = ['web'];
const TS_SKIP = new Set(['web/bridge/components.generated.ts']);

function parseArgs(argv) {
  const opt = { max: 120, top: 10 };
  for (let i = 0; i < argv.length; ++i) {
    const v = Number(argv[i + 1]);
    if (argv[i] === '--max' && Number.isInteger(v) && v > 0) opt.max = v, ++i;
    else if (argv[i] === '--top' && Number.isInteger(v) && v > 0) opt.top = v, ++i;
    else {
      console.error('usage: node scripts/check-function-length.mjs [--max N] [--top K]');
      process.exit(2);
    }
  }
  return opt;
}

function walk(dir, keep, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (keep(e.name)) out.push(p);
  }
  return out;
}

const rel = (p) => path.relative(root, p).split(path.sep).join('/');

// Comments, string and character literals and preprocessor lines (with their continuations)
// become spaces, newlines stay, so offsets and line numbers are the file's own.
function blankC(text) {
  const out = text.split('');
  const blank = (from, to) => {
    for (let k = from; k < to; ++k) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  let lineStart = true;
  while (i < text.length) {
    const c = text[i];
    if (lineStart && /[ \t]/.test(c)) {
      ++i;
      continue;
    }
    if (lineStart && c === '#') {
      let j = i;
      while (j < text.length && !(text[j] === '\n' && text[j - 1] !== '\\')) ++j;
      blank(i, j);
      i = j;
      continue;
    }
    lineStart = c === '\n';
    if (c === '/' && text[i + 1] === '/') {
      let j = i;
      while (j < text.length && text[j] !== '\n') ++j;
      blank(i, j);
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const j = end < 0 ? text.length : end + 2;
      blank(i, j);
      i = j;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blank(i, j + 1);
      i = j + 1;
    } else ++i;
  }
  return out.join('');
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; ++i) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

function lineOf(starts, pos) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

const C_NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined']);

function cFunctions(file) {
  const code = blankC(fs.readFileSync(file, 'utf8'));
  const starts = lineStarts(code);
  const found = [];
  let depth = 0;
  let headerFrom = 0; // where the current file-level declaration's text begins
  let open = null; // the function whose body is being matched
  for (let i = 0; i < code.length; ++i) {
    const c = code[i];
    if (c === '{') {
      if (depth === 0) {
        const header = code.slice(headerFrom, i);
        const lead = header.search(/\S/);
        const at = headerFrom + lead;
        const m = /([A-Za-z_]\w*)\s*\([^;{}]*\)[\s\w()]*$/.exec(header);
        const col0 = lead >= 0 && (at === 0 || code[at - 1] === '\n');
        if (m && col0 && !header.includes('=') && !C_NOT_NAMES.has(m[1])) open = { name: m[1], line: lineOf(starts, at) };
        else open = null;
      }
      ++depth;
    } else if (c === '}') {
      if (--depth === 0) {
        if (open) found.push({ file: rel(file), name: open.name, line: open.line, length: lineOf(starts, i) - open.line + 1 });
        open = null;
        headerFrom = i + 1;
      }
      if (depth < 0) throw new Error(`${rel(file)}:${lineOf(starts, i)}: unbalanced '}'`);
    } else if (c === ';' && depth === 0) headerFrom = i + 1;
  }
  return found;
}

async function tsFunctions(files) {
  if (files.length === 0) return [];
  let API;
  let SyntaxKind;
  try {
    ({ API } = await import('typescript/unstable/sync'));
    ({ SyntaxKind } = await import('typescript/unstable/ast'));
  } catch (err) {
    throw new Error(`the TypeScript compiler API is missing (npm ci installs it): ${err.message}`);
  }
  // One project made of exactly these files, parsed only: no imports followed, no lib.
  const config = path.join(root, '.check-function-length.tsconfig.json');
  const configText = JSON.stringify({ compilerOptions: { noResolve: true, noLib: true, types: [], allowJs: false }, files });
  const api = new API({
    cwd: root,
    fs: {
      readFile: (name) => (path.resolve(name) === config ? configText : undefined),
      fileExists: (name) => (path.resolve(name) === config ? true : undefined),
    },
  });
  const kinds = new Map([
    [SyntaxKind.FunctionDeclaration, 'function'],
    [SyntaxKind.MethodDeclaration, 'method'],
    [SyntaxKind.GetAccessor, 'get'],
    [SyntaxKind.SetAccessor, 'set'],
    [SyntaxKind.Constructor, 'constructor'],
    [SyntaxKind.FunctionExpression, 'function'],
    [SyntaxKind.ArrowFunction, 'arrow'],
  ]);
  const found = [];
  try {
    const snapshot = api.updateSnapshot({ openProjects: [config] });
    const program = snapshot.getProjects()[0].program;
    for (const file of files) {
      const sf = program.getSourceFile(file);
      if (!sf) throw new Error(`${rel(file)}: not parsed`);
      const nameOf = (node) => {
        if (node.name?.text) return node.name.text;
        if (node.kind === SyntaxKind.Constructor) return 'constructor';
        const p = node.parent;
        if (p && (p.kind === SyntaxKind.VariableDeclaration || p.kind === SyntaxKind.PropertyAssignment || p.kind === SyntaxKind.PropertyDeclaration) && p.name?.text) return p.name.text;
        return `<${kinds.get(node.kind)}>`;
      };
      const visit = (node) => {
        if (kinds.has(node.kind) && node.body) {
          const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
          const end = sf.getLineAndCharacterOfPosition(node.end).line + 1;
          found.push({ file: rel(file), name: nameOf(node), line, length: end - line + 1 });
        }
        node.forEachChild(visit);
      };
      sf.forEachChild(visit);
    }
  } finally {
    api.close();
  }
  return found;
}

function report(title, fns, opt) {
  const sorted = [...fns].sort((a, b) => b.length - a.length || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  console.log(`${title}: ${fns.length} functions, the ${Math.min(opt.top, sorted.length)} longest:`);
  for (const f of sorted.slice(0, opt.top)) {
    const key = `${f.file}:${f.name}`;
    const mark = f.length > opt.max ? (EXCEPTIONS[key] ? '  (exception)' : '  OVER') : '';
    console.log(`  ${`${f.file}:${f.line}`.padEnd(46)} ${String(f.length).padStart(4)}  ${f.name}${mark}`);
  }
  return sorted;
}

const opt = parseArgs(process.argv.slice(2));
const cFiles = C_DIRS.flatMap((d) => walk(path.join(root, d), (n) => /\.[ch]$/.test(n)));
const tsFiles = TS_DIRS.flatMap((d) => walk(path.join(root, d), (n) => /\.ts$/.test(n) && !n.endsWith('.d.ts'))).filter((f) => !TS_SKIP.has(rel(f)));
const cFns = report('C (wasm/src, wasm/exports, wasm/cli)', cFiles.flatMap(cFunctions), opt);
const tsFns = report('TypeScript (web/)', await tsFunctions(tsFiles), opt);

const problems = [];
const over = [...cFns, ...tsFns].filter((f) => f.length > opt.max);
for (const f of over) {
  if (!EXCEPTIONS[`${f.file}:${f.name}`]) problems.push(`${f.file}:${f.line}: ${f.name} is ${f.length} lines (limit ${opt.max}): split it into named stages, or add it to EXCEPTIONS with the reason`);
}
const overKeys = new Set(over.map((f) => `${f.file}:${f.name}`));
for (const key of Object.keys(EXCEPTIONS)) {
  if (!overKeys.has(key)) problems.push(`${key}: in EXCEPTIONS but not over ${opt.max} lines (or gone): remove the entry`);
}
const excused = over.length - over.filter((f) => !EXCEPTIONS[`${f.file}:${f.name}`]).length;
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log(`function length: none over ${opt.max} lines${excused ? ` but the ${excused} exception(s) listed in the script:` : ''}`);
for (const [key, why] of Object.entries(EXCEPTIONS)) console.log(`  ${key}: ${why}`);
