// n8n's layout (issue 59): Prettier, plus comments wrapped at its printWidth, which Prettier never
// does (scripts/comment-width.js, run by `npm run format` and `npm run format:check`).
const { codeFiles, overWidth, rewrap, WIDTH } = require('../../scripts/comment-width');

const words = (count) => Array.from({ length: count }, (_, index) => `word${index}`).join(' ');

test('a // paragraph with a line over the width is rewrapped at it, its words in order, its indent kept', () => {
	const text = `\tconst a = 1;\n\t// ${words(30)}\n\t// and the end of the paragraph\n\tconst b = 2;\n`;
	const wrapped = rewrap(text);
	const lines = wrapped.split('\n');
	expect(overWidth(wrapped)).toEqual([]);
	expect(lines[0]).toBe('\tconst a = 1;');
	expect(lines.slice(1, -2).every((line) => line.startsWith('\t// '))).toBe(true);
	expect(
		lines
			.slice(1, -2)
			.map((line) => line.slice(4))
			.join(' '),
	).toBe(`${words(30)} and the end of the paragraph`);
	expect(lines.at(-2)).toBe('\tconst b = 2;');
});

test('a one-line /** … */ over the width becomes a block of its own lines', () => {
	const wrapped = rewrap(`/** ${words(25)} */\nexport const x = 1;\n`);
	const lines = wrapped.split('\n');
	expect(lines[0]).toBe('/**');
	expect(lines.at(-3)).toBe(' */');
	expect(lines.slice(1, -3).every((line) => line.startsWith(' * ') && line.length <= WIDTH)).toBe(
		true,
	);
	expect(
		lines
			.slice(1, -3)
			.map((line) => line.slice(3))
			.join(' '),
	).toBe(words(25));
});

test('a list item or a blank comment line ends a paragraph; lines within the width are left as they are', () => {
	const text = `// ${words(25)}\n//\n// - item one\n// short\n`;
	const wrapped = rewrap(text);
	expect(wrapped.endsWith('//\n// - item one\n// short\n')).toBe(true);
});

test('a string longer than the width is no finding; a trailing comment after code is', () => {
	expect(overWidth(`const s = '${'x'.repeat(120)}';`)).toEqual([]);
	expect(overWidth(`const s = 1; // ${words(20)}`)).toEqual([
		{ line: 1, kind: 'trailing comment' },
	]);
});

test('the code formatted holds no comment over the width', () => {
	const found = codeFiles().flatMap((file) =>
		overWidth(require('node:fs').readFileSync(file, 'utf8')).map((at) => `${file}:${at.line}`),
	);
	expect(found).toEqual([]);
});
