// README's sample outputs are what the node gives today: each operation and the trigger run again
// against the sandbox through n8n's engine (scripts/readme-samples.js, which also writes them: `npm
// run readme:samples`), and each sample in README must have the same keys and value types (ids,
// dates and numbers may differ).
const { readmeSamples, shapeDifferences, takeSamples } = require('../../scripts/readme-samples');

const shown = readmeSamples();
let today;
beforeAll(async () => {
	today = await takeSamples();
}, 60_000);

test("README shows a sample for each operation and the trigger's events, and nothing else", () => {
	expect(Object.keys(shown).sort()).toEqual(Object.keys(today).sort());
});

test.each(Object.keys(shown))(
	'README sample "%s" has the keys and value types the node outputs today',
	(name) => {
		const rerun = 'npm run readme:samples';
		expect({
			name,
			differences: shapeDifferences(shown[name], today[name]),
			fix: `if the change is meant, ${rerun}`,
		}).toEqual({
			name,
			differences: [],
			fix: `if the change is meant, ${rerun}`,
		});
	},
);

test('a renamed, retyped or added field is a difference', () => {
	const item = { _id: 'a', found: true, line_items: [{ sku: 'S', quantity: 1 }] };
	expect(shapeDifferences(item, { ...item })).toEqual([]);
	expect(shapeDifferences(item, { _id: 'b', found: true, lineItems: [] })).toEqual([
		'line_items: README shows it, the node no longer gives it',
		'lineItems: the node gives it, README does not show it',
	]);
	expect(shapeDifferences(item, { ...item, found: 'yes' })).toEqual([
		'found: README shows boolean, the node gives string',
	]);
	expect(shapeDifferences(item, { ...item, line_items: [{ sku: 'S', qty: 1 }] })).toEqual([
		'line_items[0].quantity: README shows it, the node no longer gives it',
		'line_items[0].qty: the node gives it, README does not show it',
	]);
});
