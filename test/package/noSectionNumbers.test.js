// What users read (the built package's texts: messages, descriptions, options; the READMEs and
// docs; the examples' notes), and the code's comments, never cite a section number of a document a
// clone does not have ("spec 2.12", "part 7", "(4.4)"). The service is described in
// docs/service-interface.md, cited by section name.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');

const CITATIONS = [
	/\b(?:spec(?:ification)?|part|section|§)\s*\d+(?:\.\d+)*/i,
	/\(\s*\d\.\d{1,2}\s*(?:,\s*\d\.\d{1,2}\s*)*\)/,
	/\bspec's\b|\bthe spec\b/i,
];

/** Every line of `text` that cites a section, as "file:line: text". */
function citationsIn(file, text) {
	return text
		.split('\n')
		.map((line, index) => ({ line, number: index + 1 }))
		.filter(({ line }) => CITATIONS.some((pattern) => pattern.test(line)))
		.map(({ line, number }) => `${file}:${number}: ${line.trim().slice(0, 160)}`);
}

function filesUnder(folder, extensions) {
	const full = path.join(root, folder);
	if (!fs.existsSync(full)) return [];
	return fs
		.readdirSync(full, { recursive: true })
		.filter((file) => extensions.some((extension) => file.endsWith(extension)))
		.map((file) => path.join(folder, file));
}

test('the pattern finds the citations it is meant to, and not versions or figures', () => {
	const found = (text) => citationsIn('x', text).length > 0;
	for (const text of [
		"'KIT' is not a kit field of the service (spec 2.12)",
		'the error shape (part 7)',
		'how the _id is obtained (4.4)',
		'add_handler and remove_handler (4.4, 4.5)',
		'see Section 6',
		'the spec gives no unit',
	]) {
		expect({ text, found: found(text) }).toEqual({ text, found: true });
	}
	for (const text of [
		'n8n 2.41.1 and 1.123.81',
		'interface version 4.5.0',
		'weight: 1.5',
		'(0.57 s when quiet)',
		'docs/service-interface.md, Errors',
	]) {
		expect({ text, found: found(text) }).toEqual({ text, found: false });
	}
});

test('no user-facing text cites a section number', () => {
	const files = [
		// Built with removeComments, so what is left in dist/ is what n8n shows: names, descriptions,
		// messages.
		...filesUnder('dist', ['.js', '.json']),
		...filesUnder('examples', ['.json']),
		...filesUnder('docs', ['.md']),
		'README.md',
		'CONTRIBUTING.md',
		'CHANGELOG.md',
		'test/README.md',
		'sandbox/README.md',
		'bench/README.md',
		'e2e/README.md',
		'e2e/queue/README.md',
	];
	expect(files.filter((file) => file.startsWith('dist')).length).toBeGreaterThan(10);
	const citations = files.flatMap((file) =>
		citationsIn(file, fs.readFileSync(path.join(root, file), 'utf8')),
	);
	expect(citations).toEqual([]);
});

test('no comment in the code cites a section number either (a clone could not follow it)', () => {
	const files = ['nodes', 'credentials', 'sandbox', 'test', 'e2e', 'bench', 'scripts']
		.flatMap((folder) => filesUnder(folder, ['.ts', '.js', '.mjs', '.sh']))
		.filter(
			(file) =>
				!file.includes('node_modules') &&
				!file.startsWith('e2e/hosts') &&
				file !== path.relative(root, __filename),
		);
	expect(files.length).toBeGreaterThan(50);
	const citations = files.flatMap((file) =>
		citationsIn(file, fs.readFileSync(path.join(root, file), 'utf8')),
	);
	expect(citations).toEqual([]);
});
