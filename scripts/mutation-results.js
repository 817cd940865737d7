// The committed mutation results (mutation/results/, one file per module: mutation/resultsStore.js)
// and Stryker's incremental file (reports/mutation/stryker-incremental.json, stryker.config.mjs),
// one into the other, and what the mutation scripts ask of them:
//
// node scripts/mutation-results.js merge [--out <file>] the store -> Stryker's file (before a run)
// node scripts/mutation-results.js split [--from <file>] Stryker's file -> the store (after a run):
// each module
// it holds; a module it does not hold keeps its file,
//                                                           unless the module is gone
// node scripts/mutation-results.js changed the modules of nodes/ to mutate in incremental mode
// (`npm run mutation:ci`), comma-separated: those whose
// source differs from the recorded one, and those with
//                                                           no results yet
//   node scripts/mutation-results.js rerun-listed --in <file>
// drops from Stryker's file the results of the mutants
// listed as equivalent (mutation/equivalent-mutants.tsv)
// in every module whose source changed since them, so
// that the run tests them again (they must still survive)
// node scripts/mutation-results.js listed [<module>...] Stryker's `--mutate` ranges of the listed
// mutants (of
// those modules, or all), comma-separated: with
// MUTATION_RUN_EQUIVALENTS=1 npm run mutation -- --mutate
// node scripts/mutation-results.js prune drops the ghosts: results of mutants the recorded
// source does not make (mutation/instrument.js)
//   node scripts/mutation-results.js rekey [--config <prettier config>]
// after a change of layout only: every module whose
// recorded source and current source format (Prettier) to
// the same text gets its results moved to the current
// source, each mutant to its place there; exits 1 naming
// each mutant it cannot place (that module keeps its file)
//
// Every command takes --root <dir> (or MUTATION_ROOT): the checkout whose nodes/ and mutation/ it
// reads and writes (default: this one).
const fs = require('node:fs');
const path = require('node:path');

const REPOSITORY = path.resolve(__dirname, '..');
const store = require('../mutation/resultsStore');
const { rewrap } = require('./comment-width');
const { EQUIVALENT_FILE, entryName, placesOf, readEquivalent } = require('../mutation/equivalents');
const { mutantsOf, withoutGhosts } = require('../mutation/instrument');

function argument(name, fallback) {
	const index = process.argv.indexOf(name);
	return index === -1 ? fallback : process.argv[index + 1];
}

const ROOT = path.resolve(argument('--root', process.env.MUTATION_ROOT ?? REPOSITORY));
const RESULTS_DIR = path.join(ROOT, 'mutation/results');

// The endpoint table gets no mutant from Stryker (`as const`): its hand mutants
// (scripts/mutation-endpoints.js, mutation/endpoints-results.json) stand for it.
const HAND_MUTATED = new Set(['nodes/InventoryOps/transport/endpoints.ts']);
const ENDPOINTS_RECORD = 'mutation/endpoints-results.json';

// n8n's Prettier configuration for community nodes (the template @n8n/node-cli writes), for a
// checkout without its own.
const N8N_PRETTIER_CONFIG = path.join(
	REPOSITORY,
	'node_modules/@n8n/node-cli/dist/template/templates/shared/default/.prettierrc.js',
);

const readModule = (module) => fs.readFileSync(path.join(ROOT, module), 'utf8');

async function changedModules() {
	const recorded = store.recordedSources(RESULTS_DIR);
	const sources = fs
		.readdirSync(path.join(ROOT, 'nodes'), { recursive: true })
		.map((name) => `nodes/${name.split(path.sep).join('/')}`)
		.filter((file) => file.endsWith('.ts'))
		.sort();
	const changed = [];
	for (const file of sources) {
		if (HAND_MUTATED.has(file)) continue;
		const source = recorded.get(file);
		if (source === undefined) {
			console.error(
				`mutation: ${file} has no results yet (mutation/results/${store.resultsPathOf(file)}): mutated`,
			);
			changed.push(file);
		} else if (source !== readModule(file)) changed.push(file);
	}
	// A module Stryker makes no mutant of (types only) gets no results from a run: it would be
	// mutated again by every run, each paying for a run of all suites.
	const made = await mutantsOf(new Map(changed.map((file) => [file, readModule(file)])));
	return changed.filter((file) => {
		if (made.get(file).length !== 0) return true;
		console.error(`mutation: ${file} makes no mutant: nothing to mutate`);
		return false;
	});
}

function equivalentList() {
	if (process.env.MUTATION_EQUIVALENT_FILE) return readEquivalent();
	const own = path.join(ROOT, EQUIVALENT_FILE);
	return readEquivalent(fs.existsSync(own) ? own : path.join(REPOSITORY, EQUIVALENT_FILE));
}

/**
 * The listed entries of one module's results ({ source, mutants }): mutant index -> entry, and the
 * entries not found.
 */
function listedIn(module, { source, mutants }, entries) {
	const ofModule = new Map(
		entries.filter((entry) => entry.file === module).map((entry) => [entry.key, entry]),
	);
	const found = new Map();
	placesOf(module, source, mutants).forEach((place, index) => {
		const entry = ofModule.get(place.key);
		if (entry) found.set(index, entry);
	});
	const matched = new Set(found.values());
	return { found, stale: [...ofModule.values()].filter((entry) => !matched.has(entry)) };
}

/** Stryker's file without the results of listed mutants in modules that changed since them. */
function rerunListed(file) {
	const report = JSON.parse(fs.readFileSync(file, 'utf8'));
	const entries = equivalentList();
	const dropped = [];
	for (const [module, result] of Object.entries(report.files ?? {})) {
		const name = path.relative(ROOT, path.resolve(ROOT, module)).split(path.sep).join('/');
		if (!fs.existsSync(path.join(ROOT, name)) || readModule(name) === result.source) continue;
		const { found } = listedIn(name, result, entries);
		if (found.size === 0) continue;
		result.mutants = result.mutants.filter((mutant, index) => !found.has(index));
		dropped.push(`${name} (${found.size})`);
	}
	fs.writeFileSync(file, JSON.stringify(report));
	console.log(
		`mutation: listed equivalents to run again, their modules changed: ${dropped.length === 0 ? 'none' : dropped.join(', ')}`,
	);
}

/**
 * Stryker's --mutate ranges (lines from 1, columns from 0) of the listed mutants of the modules
 * named (or all).
 */
function listedRanges(modules) {
	const { records } = store.readStore(RESULTS_DIR);
	const report = store.merge(records);
	const entries = equivalentList().filter(
		(entry) => modules.length === 0 || modules.includes(entry.file),
	);
	const ranges = [];
	let stale = 0;
	for (const module of [...new Set(entries.map((entry) => entry.file))].sort()) {
		const result = report.files[module];
		const { found, stale: missing } = result
			? listedIn(module, result, entries)
			: { found: new Map(), stale: entries.filter((entry) => entry.file === module) };
		for (const entry of missing)
			console.error(`mutation: no mutant at the place of ${entryName(entry)}`);
		stale += missing.length;
		for (const index of [...found.keys()].sort((a, b) => a - b)) {
			const { start, end } = result.mutants[index].location;
			ranges.push(`${module}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`);
		}
	}
	console.log(ranges.join(','));
	if (stale > 0) process.exitCode = 1;
}

/**
 * A module's file as a run's split would write it (mutants sorted by place; the test table only the
 * tests its mutants name, in the store's order).
 */
const rewritten = (name, record) =>
	store.split(store.merge(new Map([[name, record]]))).modules.get(name);

/**
 * Drops the ghosts (mutation/instrument.js) from the store: every module's results of mutants its
 * source does not make.
 */
async function prune() {
	const { records } = store.readStore(RESULTS_DIR);
	const decoded = new Map(
		[...records].map(([name, record]) => [
			name,
			store.decodeModule(store.moduleOf(name), record, () => undefined).fileResult,
		]),
	);
	const made = await mutantsOf(
		new Map([...decoded].map(([name, { source }]) => [store.moduleOf(name), source])),
	);
	let dropped = 0;
	for (const [name, record] of records) {
		const mutants = decoded.get(name).mutants;
		const { ghosts } = withoutGhosts(mutants, made.get(store.moduleOf(name)));
		if (ghosts.length === 0) continue;
		const ghostRows = new Set(ghosts.map((ghost) => mutants.indexOf(ghost)));
		for (const index of ghostRows)
			console.log(
				`mutation: ${store.moduleOf(name)}:${record.mutants[index][2]} ${record.mutants[index][0]} -> ${record.mutants[index][1]} (${record.mutants[index][3]}): a ghost, dropped`,
			);
		fs.writeFileSync(
			path.join(RESULTS_DIR, name),
			rewritten(name, {
				...record,
				mutants: record.mutants.filter((row, index) => !ghostRows.has(index)),
			}),
		);
		dropped += ghostRows.size;
	}
	console.log(`mutation: ${dropped} ghost result(s) dropped from mutation/results/`);
}

/**
 * The Prettier options for a module: the checkout's own configuration, else n8n's (@n8n/node-cli's
 * template).
 */
async function prettierOptions(prettier, file) {
	const configFile = argument('--config');
	if (configFile) return { ...require(path.resolve(configFile)), filepath: file };
	const own = await prettier.resolveConfig(file);
	if (own) return { ...own, filepath: file };
	return { ...require(N8N_PRETTIER_CONFIG), filepath: file };
}

/** Whether two versions of a module differ in layout only: the same text once formatted. */
async function sameFormatted(prettier, file, recorded, current) {
	const options = await prettierOptions(prettier, file);
	try {
		// `npm run format`: Prettier, then comments wrapped at its width (scripts/comment-width.js).
		const formatted = async (text) => rewrap(await prettier.format(text, options));
		return (await formatted(recorded)) === (await formatted(current));
	} catch (error) {
		console.error(
			`mutation: ${file}: Prettier cannot format it (${error.message.split('\n')[0]}): left to a run`,
		);
		return false;
	}
}

/**
 * Moves each module's results to its current source where the two differ in layout only (module
 * doc, rekey). Each recorded mutant goes to the mutant of the current source with the same place
 * (mutatorName, code and replacement as tokens, declaration and occurrence:
 * mutation/equivalents.js), taking that mutant's replacement text and location; its status, tests
 * and reason stay. A module with a mutant on either side that finds no partner keeps its file and
 * is named.
 */
async function rekey() {
	const prettier = require(require.resolve('prettier', { paths: [REPOSITORY] }));
	const { records } = store.readStore(RESULTS_DIR);
	const candidates = new Map();
	const counts = { unchanged: 0, changed: [], rekeyed: [], failed: [], mutants: 0, ghosts: 0 };
	for (const [name, record] of [...records].sort(([a], [b]) => a.localeCompare(b))) {
		const module = store.moduleOf(name);
		if (!fs.existsSync(path.join(ROOT, module))) continue;
		const recorded = record.source.join('\n');
		const current = readModule(module);
		if (recorded === current) counts.unchanged++;
		else if (await sameFormatted(prettier, path.join(ROOT, module), recorded, current))
			candidates.set(module, { name, record, recorded, current });
		else counts.changed.push(module);
	}
	const made = await mutantsOf(
		new Map([...candidates].map(([module, { current }]) => [module, current])),
	);
	const madeBefore = await mutantsOf(
		new Map([...candidates].map(([module, { recorded }]) => [module, recorded])),
	);
	for (const [module, { name, record, recorded, current }] of candidates) {
		const decoded = store.decodeModule(module, record, () => undefined).fileResult.mutants;
		// A ghost (the result of a mutant the recorded source does not make: mutation/instrument.js)
		// has no place to go.
		const { ghosts } = withoutGhosts(decoded, madeBefore.get(module));
		const ghostRows = new Set(ghosts.map((ghost) => decoded.indexOf(ghost)));
		for (const index of ghostRows)
			console.log(
				`mutation: ${module}:${record.mutants[index][2]} ${record.mutants[index][0]} -> ${record.mutants[index][1]} (${record.mutants[index][3]}): a ghost, dropped`,
			);
		counts.ghosts += ghostRows.size;
		const kept = decoded.filter((mutant, index) => !ghostRows.has(index));
		const keptRows = record.mutants.filter((row, index) => !ghostRows.has(index));
		const before = placesOf(module, recorded, kept);
		const now = made.get(module);
		const after = placesOf(module, current, now);
		const indexByKey = new Map(after.map((place, index) => [place.key, index]));
		const unplaced = [];
		const placed = new Set();
		const rows = keptRows.map((row, index) => {
			const target = indexByKey.get(before[index].key);
			if (target === undefined) {
				unplaced.push(
					`  ${module}:${row[2]} ${row[0]} ${before[index].original} -> ${before[index].replacement} (${before[index].declaration}, #${before[index].occurrence}, ${row[3]}): no such mutant in the current source`,
				);
				return row;
			}
			placed.add(target);
			const moved = [...row];
			moved[1] = now[target].replacement ?? null;
			moved[2] = store.placeText(now[target].location);
			return moved;
		});
		after.forEach((place, index) => {
			if (placed.has(index)) return;
			unplaced.push(
				`  ${module}:${store.placeText(now[index].location)} ${place.mutator} ${place.original} -> ${place.replacement} (${place.declaration}, #${place.occurrence}): a mutant of the current source with no recorded result`,
			);
		});
		if (unplaced.length > 0) {
			counts.failed.push({ module, unplaced });
			continue;
		}
		fs.writeFileSync(
			path.join(RESULTS_DIR, name),
			rewritten(name, { ...record, source: current.split('\n'), mutants: rows }),
		);
		counts.rekeyed.push(module);
		counts.mutants += rows.length;
	}
	// The test file Stryker sees (mutation/all.mutation.js) takes its new layout too: Stryker diffs
	// it as well.
	const testFilesPath = path.join(RESULTS_DIR, 'test-files.json');
	if (fs.existsSync(testFilesPath)) {
		const testFiles = JSON.parse(fs.readFileSync(testFilesPath, 'utf8'));
		for (const [file, lines] of Object.entries(testFiles)) {
			const current = fs.existsSync(path.join(ROOT, file))
				? fs.readFileSync(path.join(ROOT, file), 'utf8')
				: undefined;
			const recorded = lines.join('\n');
			if (
				current !== undefined &&
				recorded !== current &&
				(await sameFormatted(prettier, path.join(ROOT, file), recorded, current))
			) {
				testFiles[file] = current.split('\n');
				console.log(`mutation: test-files.json takes the new layout of ${file}`);
			}
		}
		fs.writeFileSync(testFilesPath, `${JSON.stringify(testFiles, null, '\t')}\n`);
	}
	// The endpoint table's hand mutants are named by endpoint and field, not by place: the record
	// takes the new source.
	const endpoints = path.join(ROOT, ENDPOINTS_RECORD);
	const table = [...HAND_MUTATED][0];
	if (fs.existsSync(endpoints) && fs.existsSync(path.join(ROOT, table))) {
		const record = JSON.parse(fs.readFileSync(endpoints, 'utf8'));
		const current = readModule(table);
		if (
			record.source !== current &&
			(await sameFormatted(prettier, path.join(ROOT, table), record.source, current))
		) {
			fs.writeFileSync(endpoints, `${JSON.stringify({ ...record, source: current }, null, 2)}\n`);
			console.log(`mutation: ${ENDPOINTS_RECORD} takes the new layout of ${table}`);
		}
	}
	console.log(
		`mutation: results re-keyed to the current layout: ${counts.rekeyed.length} modules (${counts.mutants} mutants, every one placed${counts.ghosts > 0 ? `; ${counts.ghosts} ghosts dropped` : ''})` +
			`; ${counts.unchanged} unchanged; ${counts.changed.length} changed in more than layout (left to a run)${counts.changed.length > 0 ? `: ${counts.changed.join(', ')}` : ''}`,
	);
	if (counts.failed.length > 0) {
		console.error(
			`mutation: ${counts.failed.length} module(s) NOT re-keyed (their results files are unchanged): mutants with no place`,
		);
		for (const { unplaced } of counts.failed) for (const line of unplaced) console.error(line);
		process.exitCode = 1;
	}
	return counts;
}

const fail = (error) => {
	console.error(error);
	process.exitCode = 1;
};

const command = process.argv[2];
if (command === 'merge') {
	const out = path.resolve(ROOT, argument('--out', store.INCREMENTAL_FILE));
	const report = store.readStoreAsReport(RESULTS_DIR);
	fs.mkdirSync(path.dirname(out), { recursive: true });
	fs.writeFileSync(out, JSON.stringify(report));
	const mutants = Object.values(report.files).reduce((sum, { mutants }) => sum + mutants.length, 0);
	console.log(
		`mutation: ${path.relative(ROOT, out)} from mutation/results/ (${Object.keys(report.files).length} modules, ${mutants} mutants)`,
	);
} else if (command === 'split') {
	const from = path.resolve(ROOT, argument('--from', store.INCREMENTAL_FILE));
	if (!fs.existsSync(from)) {
		console.error(`mutation: no ${path.relative(ROOT, from)} to split`);
		process.exit(1);
	}
	const { written, removed } = store.writeStore(JSON.parse(fs.readFileSync(from, 'utf8')), {
		dir: RESULTS_DIR,
		exists: (module) => fs.existsSync(path.join(ROOT, module)),
	});
	const names = (list) => list.map((name) => name.replace(/\.json$/, '')).join(', ');
	console.log(
		`mutation: results written to mutation/results/: ${written.length === 0 ? 'none changed' : names(written)}`,
	);
	if (removed.length > 0)
		console.log(`mutation: results removed of modules that are gone: ${names(removed)}`);
} else if (command === 'changed') {
	changedModules().then((modules) => console.log(modules.join(',')), fail);
} else if (command === 'rerun-listed') {
	rerunListed(path.resolve(ROOT, argument('--in', store.INCREMENTAL_FILE)));
} else if (command === 'listed') {
	listedRanges(
		process.argv
			.slice(3)
			.filter((word, index, words) => !word.startsWith('--') && words[index - 1] !== '--root'),
	);
} else if (command === 'prune') {
	prune().catch(fail);
} else if (command === 'rekey') {
	rekey().catch(fail);
} else {
	console.error(
		'usage: node scripts/mutation-results.js merge [--out <file>] | split [--from <file>] | changed | rerun-listed [--in <file>] | listed [<module>...] | prune | rekey [--config <file>]   (each: [--root <checkout>])',
	);
	process.exit(2);
}
