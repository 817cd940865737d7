'use strict';

// Reading V8 CPU profiles (.cpuprofile, as `node --cpu-prof` or the inspector's Profiler.stop write
// them): self time per function and per package, and the time spent inside given code including
// what it calls.
const PACKAGE = /node_modules\/((@[^/]+\/)?[^/]+)/;

function shortPlace(url) {
	return url
		.replace(/^file:\/\//, '')
		.replace(/.*\/node_modules\//, '~/')
		.replace(/.*\/(dist|bench|test|sandbox)\//, '$1/');
}

function packageOf(node) {
	const { url, functionName } = node.callFrame;
	if (url === '') return functionName; // (program), (garbage collector), (idle), native
	if (url.startsWith('node:')) return 'node:*';
	return PACKAGE.exec(url)?.[1] ?? shortPlace(url).split('/')[0];
}

/**
 * `{ totalUs, idleUs, byPackage, byFunction, insideUs(predicate) }` of one profile. Self time is
 * what a function ran itself; `insideUs(frame => ...)` is the time of every sample with such a
 * frame on its stack.
 */
function readProfile(profile) {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parentOf.set(child, node.id);
	const selfUs = new Map();
	profile.samples.forEach((id, index) =>
		selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)),
	);
	let totalUs = 0;
	let idleUs = 0;
	const byPackage = new Map();
	const byFunction = new Map();
	for (const [id, us] of selfUs) {
		const node = byId.get(id);
		const { functionName, url, lineNumber } = node.callFrame;
		if (functionName === '(idle)') {
			idleUs += us;
			continue;
		}
		totalUs += us;
		const pkg = packageOf(node);
		byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
		const key = `${functionName || '(anonymous)'} ${shortPlace(url)}:${lineNumber + 1}`;
		byFunction.set(key, (byFunction.get(key) ?? 0) + us);
	}
	const insideUs = (predicate) => {
		let sum = 0;
		for (const [id, us] of selfUs) {
			for (let at = id; at !== undefined; at = parentOf.get(at)) {
				if (predicate(byId.get(at).callFrame)) {
					sum += us;
					break;
				}
			}
		}
		return sum;
	};
	return { totalUs, idleUs, byPackage, byFunction, insideUs };
}

/** The largest entries of a Map of microseconds, as `[key, us]`. */
function largest(map, count) {
	return [...map].sort((a, b) => b[1] - a[1]).slice(0, count);
}

module.exports = { readProfile, largest };
