'use strict';

// `node bench/profile-summary.js FILE.cpuprofile [N]`: the top N functions by self time and the share of time per
// package, from a profile written with BENCH_CPU_PROF=dir npm run bench (node --cpu-prof).
const fs = require('node:fs');

const [file, top = '25'] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const selfUs = new Map();
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
for (let index = 0; index < profile.samples.length; index++) {
	const id = profile.samples[index];
	selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
}
const total = [...selfUs.values()].reduce((sum, value) => sum + value, 0);
const byFunction = new Map();
const byPackage = new Map();
for (const [id, us] of selfUs) {
	const { functionName, url, lineNumber } = byId.get(id).callFrame;
	const where = url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, '~/').replace(/.*\/(dist|bench|test|sandbox)\//, '$1/');
	const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
	byFunction.set(key, (byFunction.get(key) ?? 0) + us);
	const pkg = url === '' ? functionName : (/node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.startsWith('node:') ? 'node:*' : where.split('/')[0]));
	byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
}
const show = (map, count) =>
	[...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`).join('\n');
process.stdout.write(`total ${(total / 1000).toFixed(0)} ms sampled\n\nby package:\n${show(byPackage, 12)}\n\nby function (self):\n${show(byFunction, Number(top))}\n`);
