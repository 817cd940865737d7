// The list of equivalent mutants (equivalent-mutants.tsv: module, mutator, the code as written, the replacement, why)
// and the key a mutant is matched by, for the report (scripts/mutation-report.js) and the planner (killerFirst.mjs).
const fs = require('node:fs');
const path = require('node:path');

const EQUIVALENT_FILE = 'mutation/equivalent-mutants.tsv';

const oneLine = (text) => {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > 120 ? `${line.slice(0, 120)}…` : line;
};

/** The mutated code as written: the source between the mutant's start and end (lines 1-based, columns 1-based). */
function originalText(source, { start, end }) {
	const lines = source.split('\n');
	if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
	return [
		lines[start.line - 1].slice(start.column - 1),
		...lines.slice(start.line, end.line - 1),
		lines[end.line - 1].slice(0, end.column - 1),
	].join('\n');
}

/** What identifies a mutant across line moves: module, mutator, the code it replaces and what it puts there. */
function keyOf(file, mutant, source) {
	return [file, mutant.mutatorName, oneLine(originalText(source, mutant.location)), oneLine(mutant.replacement ?? '')].join('\t');
}

function readEquivalent() {
	const listed = new Map();
	const text = fs.readFileSync(path.join(__dirname, '..', EQUIVALENT_FILE), 'utf8');
	for (const line of text.split('\n')) {
		if (line.trim() === '' || line.startsWith('#')) continue;
		const fields = line.split('\t');
		if (fields.length !== 5 || fields[4].trim() === '') {
			throw new Error(`${EQUIVALENT_FILE}: expected file, mutator, original, replacement and why, tab-separated: ${line}`);
		}
		listed.set(fields.slice(0, 4).join('\t'), fields[4]);
	}
	return listed;
}

module.exports = { EQUIVALENT_FILE, keyOf, oneLine, originalText, readEquivalent };
