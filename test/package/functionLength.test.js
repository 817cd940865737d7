// No function in nodes/ is over 80 lines in n8n's Prettier layout (from its first line to its
// closing brace, nested functions counted in their own right and inside the one that holds them),
// so that each reads on one screen. Printed longest first with `node
// test/package/functionLength.test.js`.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '../..');
const MAX_LINES = 80;

function functionsIn(file, text) {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found = [];
	const visit = (node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const line = (position) => source.getLineAndCharacterOfPosition(position).line;
			const name =
				node.name?.getText(source) ??
				(ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
			found.push({
				file: path.relative(ROOT, file),
				name,
				line: line(node.getStart(source)) + 1,
				lines: line(node.end) - line(node.getStart(source)) + 1,
			});
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

function allFunctions(root = path.join(ROOT, 'nodes')) {
	return fs
		.readdirSync(root, { recursive: true })
		.filter((name) => name.endsWith('.ts'))
		.flatMap((name) =>
			functionsIn(path.join(root, name), fs.readFileSync(path.join(root, name), 'utf8')),
		)
		.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === __filename) {
	for (const { file, name, line, lines } of allFunctions().slice(0, Number(process.argv[2] ?? 10)))
		console.log(`${lines}\t${file}:${line}\t${name}`);
} else {
	test(`no function in nodes/ is over ${MAX_LINES} lines`, () => {
		expect(allFunctions().filter(({ lines }) => lines > MAX_LINES)).toEqual([]);
	});

	test('the count can fail: an 81-line function is found, with its name and place', () => {
		const body = Array.from({ length: 79 }, (_, index) => `\tconst v${index} = ${index};`).join(
			'\n',
		);
		const [found] = functionsIn('long.ts', `export function long(): void {\n${body}\n}\n`);
		expect(found).toEqual({
			file: path.relative(ROOT, 'long.ts'),
			name: 'long',
			line: 1,
			lines: 81,
		});
	});
}
