import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8')); const target = process.argv[3];
const byId = new Map(p.nodes.map((n) => [n.id, n])); const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const t = new Map(); p.samples.forEach((id, i) => t.set(id, (t.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
const sub = (id) => { const n = byId.get(id); return (t.get(id) ?? 0) + (n.children ?? []).reduce((s, c) => s + sub(c), 0); };
const agg = new Map();
for (const n of p.nodes) if (n.callFrame.functionName === target) { let chain = []; let cur = parent.get(n.id); for (let k = 0; k < 4 && cur !== undefined; k++) { const f = byId.get(cur).callFrame; chain.push(`${f.functionName}:${f.lineNumber}`); cur = parent.get(cur); } const key = chain.join(' < '); agg.set(key, (agg.get(key) ?? 0) + sub(n.id)); }
[...agg].sort((a, b) => b[1] - a[1]).slice(0, 10).forEach(([k, v]) => console.log((v / 1000).toFixed(1).padStart(7), k));
