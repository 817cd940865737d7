// README's pictures are of today's nodes: each picture README shows was taken by `npm run
// e2e:screenshot`, which recorded in docs/pictures.json a fingerprint of what it shows from the
// package (e2e/lib/pictures.js: the node and credential descriptions on screen, the output fields,
// the node's messages). Computed again from the build (dist/), a fingerprint that differs names the
// picture to take again; docs/ holds no picture README does not show.
const fs = require('node:fs');
const path = require('node:path');

const { PICTURES, fingerprint, readRecord } = require('../../e2e/lib/pictures');

const root = path.resolve(__dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const shown = [...readme.matchAll(/!\[[^\]]*\]\(docs\/([\w-]+)\.png\)/g)].map((match) => match[1]);
const record = readRecord();

test('README shows every picture the screenshot script takes, and docs/ holds no other', () => {
	expect(shown.length).toBeGreaterThan(0);
	expect([...shown].sort()).toEqual(Object.keys(PICTURES).sort());
	const inDocs = fs
		.readdirSync(path.join(root, 'docs'))
		.filter((file) => file.endsWith('.png'))
		.map((file) => file.slice(0, -4));
	expect(inDocs.sort()).toEqual([...shown].sort());
});

test.each(shown)(
	'docs/%s.png shows what the code gives today (its fingerprint matches)',
	(name) => {
		const retake = `npm run e2e:screenshot -- ${name}`;
		const taken = record[name]?.fingerprint ?? 'never taken by the screenshot script';
		expect({ picture: `docs/${name}.png`, fingerprint: taken, retake }).toEqual({
			picture: `docs/${name}.png`,
			fingerprint: fingerprint(name),
			retake,
		});
	},
);

test('a change to what a picture shows changes its fingerprint', () => {
	const { dependsOn } = PICTURES['editor-restore-error'];
	const before = fingerprint('editor-restore-error');
	PICTURES['editor-restore-error'].dependsOn = () => ({
		...dependsOn(),
		message: { message: 'another wording' },
	});
	try {
		expect(fingerprint('editor-restore-error')).not.toBe(before);
	} finally {
		PICTURES['editor-restore-error'].dependsOn = dependsOn;
	}
	expect(fingerprint('editor-restore-error')).toBe(before);
});
