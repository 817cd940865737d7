// The one rule of n8n's layout that Prettier does not apply: no comment wider than its printWidth
// (100 columns, a tab counted as tabWidth 2). Prettier never wraps a comment; only a string literal
// may be longer.
// node scripts/comment-width.js [<file>...] lists each comment line over 100 columns; exits 1 if
// any
// node scripts/comment-width.js --write [<file>...] rewraps the paragraph of each such line (a run
// of comment
//                                                      lines with the same prefix) to 100 columns
// Without files: the code `npm run format` formats (package.json), Prettier's ignore list left out.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const FOLDERS = ['nodes', 'credentials', 'test', 'e2e', 'scripts', 'sandbox', 'bench', 'mutation'];
const SKIP = /(^|\/)(node_modules|dist|reports|fixtures|results)(\/|$)/;

/**
 * The files `npm run format` formats: TypeScript of the nodes and credentials, JavaScript elsewhere
 * and at the top.
 */
function codeFiles() {
	const top = fs.readdirSync(ROOT).filter((name) => /\.m?js$/.test(name));
	const inFolders = FOLDERS.flatMap((folder) =>
		fs
			.readdirSync(path.join(ROOT, folder), { recursive: true })
			.map((name) => path.join(folder, name))
			.filter(
				(name) =>
					!SKIP.test(name) &&
					(/^(nodes|credentials)\//.test(name) ? /\.ts$/ : /\.[mc]?js$/).test(name),
			),
	);
	return [...top, ...inFolders].map((name) => path.join(ROOT, name));
}

const WIDTH = 100;
const TAB = '  ';
// A whole-line comment: its indent and marker (`//`, a block comment's `*`, or `/**` with text
// after it).
const COMMENT = /^(\s*(?:\/\/|\*|\/\*\*?)(?: |$))(.*)$/;
const width = (line) => line.replace(/\t/g, TAB).length;

/**
 * The lines of `text` a reader meets over the width: comments to wrap, and any trailing comment
 * after code.
 */
function overWidth(text) {
	return text.split('\n').flatMap((line, index) => {
		if (width(line) <= WIDTH) return [];
		if (COMMENT.test(line)) return [{ line: index + 1, kind: 'comment' }];
		// After code: a `//` outside quotes (a URL inside a string is not a comment).
		const code = line.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '""');
		return /(^|[^:])\/\/|\/\*/.test(code) ? [{ line: index + 1, kind: 'trailing comment' }] : [];
	});
}

/**
 * Rewraps each paragraph holding a comment line over the width; a paragraph ends at a blank comment
 * line or a list item.
 */
function rewrap(text) {
	const lines = text.split('\n');
	const out = [];
	for (let index = 0; index < lines.length;) {
		const match = COMMENT.exec(lines[index]);
		if (!match || width(lines[index]) <= WIDTH) {
			out.push(lines[index++]);
			continue;
		}
		const continuation = match[1].replace(/\/\*\*? $/, ' * ');
		const opensBlock = continuation !== match[1];
		// A wrapped `/** … */` becomes a block of its own lines, as Prettier and n8n write them.
		if (opensBlock) out.push(match[1].trimEnd());
		const prefix = continuation;
		const words = [];
		let end = index;
		do {
			words.push(...COMMENT.exec(lines[end])[2].split(/\s+/).filter(Boolean));
			end++;
		} while (
			end < lines.length &&
			lines[end].startsWith(continuation) &&
			/^\S/.test(lines[end].slice(continuation.length)) &&
			!/^([-|#]|\d+\.|@)/.test(lines[end].slice(continuation.length))
		);
		const closes = opensBlock && words[words.length - 1] === '*/';
		if (closes) words.pop();
		let current = prefix;
		for (const word of words) {
			const next =
				current === prefix || current === continuation ? current + word : `${current} ${word}`;
			if (width(next) > WIDTH && current !== prefix && current !== continuation) {
				out.push(current);
				current = continuation + word;
			} else current = next;
		}
		out.push(current);
		if (closes) out.push(`${continuation.slice(0, -3)} */`);
		index = end;
	}
	return out.join('\n');
}

if (require.main === module) {
	const write = process.argv.includes('--write');
	const given = process.argv.slice(2).filter((argument) => argument !== '--write');
	const files = given.length > 0 ? given : codeFiles();
	let found = 0;
	for (const file of files) {
		let text = fs.readFileSync(file, 'utf8');
		if (write) {
			const wrapped = rewrap(text);
			if (wrapped !== text) fs.writeFileSync(file, (text = wrapped));
		}
		for (const { line, kind } of overWidth(text)) {
			found++;
			console.log(
				`${path.relative(ROOT, path.resolve(file))}:${line}: a ${kind} over ${WIDTH} columns`,
			);
		}
	}
	if (found > 0) {
		console.log(
			`comment-width: ${found} line(s) over ${WIDTH} columns${write ? ' left to wrap by hand' : ': `npm run format` wraps comments'}`,
		);
		process.exit(1);
	}
}

module.exports = { codeFiles, overWidth, rewrap, WIDTH };
