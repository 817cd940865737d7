'use strict';

// `node bench/profile-summary.js FILE.cpuprofile [N]`: the top N functions by self time and the
// share of time per package, from a profile written with BENCH_CPU_PROF=dir npm run bench (node
// --cpu-prof) or by npm run bench:n8n.
const fs = require('node:fs');
const { readProfile, largest } = require('./profile');

const [file, top = '25'] = process.argv.slice(2);
const { totalUs, byPackage, byFunction } = readProfile(JSON.parse(fs.readFileSync(file, 'utf8')));
const show = (map, count) =>
	largest(map, count)
		.map(
			([key, us]) =>
				`${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
		)
		.join('\n');
process.stdout.write(
	`total ${(totalUs / 1000).toFixed(0)} ms sampled (idle excluded)\n\nby package:\n${show(byPackage, 12)}\n\nby function (self):\n${show(byFunction, Number(top))}\n`,
);
