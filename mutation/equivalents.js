// Equivalent mutants by place (equivalent-mutants.tsv), and the place of a mutant that survives
// edits elsewhere in its module and a change of layout: for the report
// (scripts/mutation-report.js), the planner (killerFirst.mjs) and the re-key of results after a
// reformat (scripts/mutation-results.js rekey).
//
// A mutant's place: its module; the declaration it is in (the names of the named declarations
// around it, outermost first, joined by '.': a class, function, method, accessor, class property,
// variable, or an object property whose value is a function; `(module)` outside all of them); its
// mutator; the code it replaces and what it puts there; and which one it is (1-based, in source
// order) of the mutants of that declaration with the same mutator, code and replacement. Code is
// compared as tokens, so that layout does not count: whitespace, comments, quote style, trailing
// commas, parentheses and the spelling of a number (what a formatter such as Prettier changes) make
// no difference; source order does, and a formatter keeps it.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const EQUIVALENT_FILE = 'mutation/equivalent-mutants.tsv';
const COLUMNS = [
	'module',
	'declaration',
	'mutator',
	'original',
	'replacement',
	'occurrence',
	'why',
];
const TOP_LEVEL = '(module)';

/** Whitespace collapsed to one space: how the list and the report print code. */
const collapse = (text) => text.replace(/\s+/g, ' ').trim();

/** Collapsed and cut at 120 characters: for messages. */
const oneLine = (text) => {
	const line = collapse(text);
	return line.length > 120 ? `${line.slice(0, 120)}…` : line;
};

/**
 * The mutated code as written: the source between the mutant's start and end (lines 1-based,
 * columns 1-based).
 */
function originalText(source, { start, end }) {
	const lines = source.split('\n');
	if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
	return [
		lines[start.line - 1].slice(start.column - 1),
		...lines.slice(start.line, end.line - 1),
		lines[end.line - 1].slice(0, end.column - 1),
	].join('\n');
}

const CLOSERS = new Set([
	ts.SyntaxKind.CloseParenToken,
	ts.SyntaxKind.CloseBracketToken,
	ts.SyntaxKind.CloseBraceToken,
]);
const PARENS = new Set([ts.SyntaxKind.OpenParenToken, ts.SyntaxKind.CloseParenToken]);
// After one of these a / divides; elsewhere it starts a regular expression.
const ENDS_OPERAND = new Set([
	ts.SyntaxKind.Identifier,
	ts.SyntaxKind.PrivateIdentifier,
	ts.SyntaxKind.ThisKeyword,
	ts.SyntaxKind.SuperKeyword,
	ts.SyntaxKind.TrueKeyword,
	ts.SyntaxKind.FalseKeyword,
	ts.SyntaxKind.NullKeyword,
	ts.SyntaxKind.NumericLiteral,
	ts.SyntaxKind.BigIntLiteral,
	ts.SyntaxKind.StringLiteral,
	ts.SyntaxKind.RegularExpressionLiteral,
	ts.SyntaxKind.NoSubstitutionTemplateLiteral,
	ts.SyntaxKind.TemplateTail,
	ts.SyntaxKind.PlusPlusToken,
	ts.SyntaxKind.MinusMinusToken,
	...CLOSERS,
]);

/**
 * Code as tokens, joined by spaces, without what layout changes: whitespace and comments (trivia),
 * the quotes of a string (its value, JSON-quoted), parentheses, a comma before a closing bracket,
 * and how a number is spelled. A template literal's text and a regular expression are kept as
 * written.
 */
function codeKey(text) {
	const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
	const tokens = [];
	// What each open { belongs to: a block or object (false), or a template literal's ${ (true).
	const braces = [];
	let previous;
	for (
		let kind = scanner.scan();
		kind !== ts.SyntaxKind.EndOfFileToken;
		previous = kind, kind = scanner.scan()
	) {
		if (
			(kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) &&
			!ENDS_OPERAND.has(previous)
		)
			kind = scanner.reScanSlashToken();
		if (kind === ts.SyntaxKind.OpenBraceToken) braces.push(false);
		else if (kind === ts.SyntaxKind.TemplateHead) braces.push(true);
		else if (kind === ts.SyntaxKind.CloseBraceToken && braces.pop()) {
			kind = scanner.reScanTemplateToken(false);
			if (kind === ts.SyntaxKind.TemplateMiddle) braces.push(true);
		}
		if (CLOSERS.has(kind) && tokens.at(-1)?.kind === ts.SyntaxKind.CommaToken) tokens.pop();
		if (PARENS.has(kind)) continue;
		let value = scanner.getTokenText();
		if (kind === ts.SyntaxKind.StringLiteral) value = JSON.stringify(scanner.getTokenValue());
		else if (kind === ts.SyntaxKind.NumericLiteral)
			value = String(Number(scanner.getTokenValue().replace(/_/g, '')));
		tokens.push({ kind, value });
	}
	return tokens.map(({ value }) => value).join(' ');
}

/** Offsets of the starts of the source's lines. */
const lineStarts = (source) => {
	const starts = [0];
	for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
	return starts;
};

/** The name of a node that names a declaration (module doc above), or undefined. */
function declarationName(node) {
	const named = (name) =>
		name === undefined
			? undefined
			: ts.isIdentifier(name) ||
				  ts.isPrivateIdentifier(name) ||
				  ts.isStringLiteral(name) ||
				  ts.isNumericLiteral(name)
				? name.text
				: name.getText();
	switch (node.kind) {
		case ts.SyntaxKind.ClassDeclaration:
		case ts.SyntaxKind.ClassExpression:
		case ts.SyntaxKind.FunctionDeclaration:
		case ts.SyntaxKind.FunctionExpression:
		case ts.SyntaxKind.MethodDeclaration:
		case ts.SyntaxKind.PropertyDeclaration:
		case ts.SyntaxKind.GetAccessor:
		case ts.SyntaxKind.SetAccessor:
		case ts.SyntaxKind.EnumDeclaration:
		case ts.SyntaxKind.ModuleDeclaration:
			return named(node.name);
		case ts.SyntaxKind.Constructor:
			return 'constructor';
		case ts.SyntaxKind.VariableDeclaration:
			return ts.isIdentifier(node.name) ? node.name.text : undefined;
		case ts.SyntaxKind.PropertyAssignment:
			return ts.isFunctionExpression(node.initializer) || ts.isArrowFunction(node.initializer)
				? named(node.name)
				: undefined;
		default:
			return undefined;
	}
}

/**
 * For one module's source: a function from a mutant's location (1-based lines and columns) to the
 * declaration it is in. Parses the source once (TypeScript's parser, no type checking).
 */
function declarationsOf(fileName, source) {
	const sourceFile = ts.createSourceFile(
		fileName,
		source,
		ts.ScriptTarget.Latest,
		true,
		fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
	);
	const starts = lineStarts(source);
	const offset = ({ line, column }) => starts[line - 1] + column - 1;
	return (location) => {
		const from = offset(location.start);
		const to = offset(location.end);
		const names = [];
		let node = sourceFile;
		for (;;) {
			const inner = node
				.getChildren(sourceFile)
				.find((child) => child.getStart(sourceFile) <= from && to <= child.getEnd());
			if (!inner) break;
			const name = declarationName(inner);
			if (name !== undefined) names.push(name);
			node = inner;
		}
		return names.length === 0 ? TOP_LEVEL : names.join('.');
	};
}

/**
 * The places of a module's mutants (every mutant Stryker makes of the source: the results of a
 * whole module, or the instrumenter's output), in the order given: { declaration, mutator,
 * original, replacement, occurrence, key }, where original and replacement are collapsed text (as
 * the list holds them) and key is what a listed entry is matched by. Mutants are { mutatorName,
 * replacement, location } with 1-based lines and columns.
 */
function placesOf(file, source, mutants) {
	const declarationAt = declarationsOf(file, source);
	const places = mutants.map((mutant) => {
		const original = originalText(source, mutant.location);
		const replacement = mutant.replacement ?? '';
		return {
			declaration: declarationAt(mutant.location),
			mutator: mutant.mutatorName,
			original: collapse(original),
			replacement: collapse(replacement),
			group: [
				file,
				declarationAt(mutant.location),
				mutant.mutatorName,
				codeKey(original),
				codeKey(replacement),
			].join('\u0000'),
			location: mutant.location,
		};
	});
	const order = places
		.map((place, index) => index)
		.sort((a, b) => compareLocations(places[a].location, places[b].location));
	const seen = new Map();
	for (const index of order) {
		const place = places[index];
		place.occurrence = (seen.get(place.group) ?? 0) + 1;
		seen.set(place.group, place.occurrence);
		place.key = `${place.group}\u0000${place.occurrence}`;
	}
	return places.map(({ group, location, ...place }) => place);
}

function compareLocations({ start: s1, end: e1 }, { start: s2, end: e2 }) {
	return s1.line - s2.line || s1.column - s2.column || e1.line - e2.line || e1.column - e2.column;
}

/** The key an entry of the list is matched by (the same as placesOf's for the mutant it names). */
const entryKey = ({ file, declaration, mutator, original, replacement, occurrence }) =>
	[file, declaration, mutator, codeKey(original), codeKey(replacement), occurrence].join('\u0000');

/**
 * The list: one entry per mutant, { file, declaration, mutator, original, replacement, occurrence,
 * why, line, where, key } (where: the list's file and line). Throws on a malformed line and on two
 * entries for one mutant. MUTATION_EQUIVALENT_FILE names another list (tests).
 */
function readEquivalent(
	file = process.env.MUTATION_EQUIVALENT_FILE ?? path.join(__dirname, '..', EQUIVALENT_FILE),
) {
	const entries = [];
	const byKey = new Map();
	const lines = fs.readFileSync(file, 'utf8').split('\n');
	lines.forEach((text, index) => {
		if (text.trim() === '' || text.startsWith('#')) return;
		const fields = text.split('\t');
		const where = `${path.relative(path.join(__dirname, '..'), file)}:${index + 1}`;
		if (
			fields.length !== COLUMNS.length ||
			fields.some((field) => field.trim() === '') ||
			!/^[1-9]\d*$/.test(fields[5])
		) {
			throw new Error(
				`${where}: expected ${COLUMNS.join(', ')} (a number from 1), tab-separated: ${text}`,
			);
		}
		const [module, declaration, mutator, original, replacement, occurrence, why] = fields;
		const entry = {
			file: module,
			declaration,
			mutator,
			original,
			replacement,
			occurrence: Number(occurrence),
			why,
			line: index + 1,
			where,
		};
		entry.key = entryKey(entry);
		if (byKey.has(entry.key))
			throw new Error(`${where}: the same mutant as line ${byKey.get(entry.key).line}`);
		byKey.set(entry.key, entry);
		entries.push(entry);
	});
	return entries;
}

/** An entry as the list's line, and as a message names it. */
const entryLine = (entry) =>
	[
		entry.file,
		entry.declaration,
		entry.mutator,
		entry.original,
		entry.replacement,
		entry.occurrence,
		entry.why,
	].join('\t');
const entryName = (entry) =>
	`${entry.file} ${entry.declaration}: ${entry.mutator} ${oneLine(entry.original)} -> ${oneLine(entry.replacement)} (#${entry.occurrence}; ${entry.where})`;

module.exports = {
	COLUMNS,
	EQUIVALENT_FILE,
	TOP_LEVEL,
	codeKey,
	collapse,
	compareLocations,
	declarationsOf,
	entryKey,
	entryLine,
	entryName,
	oneLine,
	originalText,
	placesOf,
	readEquivalent,
};
