// What n8n's editor builds from the node descriptions, checked on the loaded node types (dist/).
// The rules quoted here were read in the editor bundles of both hosts (n8n-editor-ui in
// .cache/hosts/n8n-1.123.81-* and n8n-2.41.1-*); the browser suite (e2e/) shows the same things on
// screen.
const path = require('node:path');

const DIST = path.resolve(__dirname, '../../dist');
const { InventoryOps } = require(path.join(DIST, 'nodes/InventoryOps/InventoryOps.node.js'));

const action = new InventoryOps().description;
const operations = action.properties.filter((property) => property.name === 'operation');

test('no operation value triggers the editor\'s "runs multiple times... Execute Once" hint', () => {
	// The editor shows it after a run with several input items when parameters.operation is one of
	// these.
	const hinted = ['getAll', 'getMany', 'read', 'search'];
	const values = operations.flatMap((property) => property.options.map((option) => option.value));
	expect(values).toContain('lookUp');
	expect(values.filter((value) => hinted.includes(value))).toEqual([]);
});

const { NodeHelpers } = require('n8n-workflow');
const { InventoryOpsTrigger } = require(
	path.join(DIST, 'nodes/InventoryOps/InventoryOpsTrigger.node.js'),
);

const trigger = new InventoryOpsTrigger().description;
const eventOptions = trigger.properties.find((property) => property.name === 'events').options;

describe("the trigger's entries in the node panel", () => {
	// Without `action`, the editor names an entry "On " + the option's name with dots as spaces,
	// lower-cased: "On order status changed order status".
	test('every event option has an action that reads as a sentence, and no "*" or type in its name', () => {
		for (const option of eventOptions) {
			expect(option.action).toMatch(/^On [a-z][a-z ]+$/);
			expect(option.action.toLowerCase()).toBe(`on ${option.name.toLowerCase()}`);
			expect(option.name).not.toMatch(/[*.()]/);
			expect(option.description.endsWith(` (${option.value})`)).toBe(true);
		}
		expect(new Set(eventOptions.map((option) => option.action)).size).toBe(eventOptions.length);
	});

	test('the options are in alphabetical order (the upcoming lint rule)', () => {
		const names = eventOptions.map((option) => option.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});
});

// n8n evaluates display conditions for every delivery too, under a time budget: a regex there could
// fail one.
test('no display condition of the trigger is a regex', () => {
	expect(
		JSON.stringify(trigger.properties.map((property) => property.displayOptions ?? {})),
	).not.toContain('regex');
});

test('Custom Event Types says that a type a selected pattern covers gets no handler of its own', () => {
	const custom = trigger.properties.find((property) => property.name === 'customEventTypes');
	expect(custom.description).toMatch(
		/order\.status\.shipped under order\.status\.\*\) gets no handler of its own: one event, one execution\.$/,
	);
});

test('the trigger panel says what is particular: test handlers while listening, one per event type when published, removed when unpublished, WEBHOOK_URL', () => {
	const { executionsHelp, activationHint } = trigger.triggerPanel;
	expect(executionsHelp.inactive).toMatch(
		/'Execute step' \(n8n then shows 'Listening for test event'\).*test webhook handler.*each selected event type.*removes them/,
	);
	expect(executionsHelp.inactive).toMatch(
		/publish.*one handler per event type.*Unpublishing.*removes those handlers/,
	);
	for (const text of [executionsHelp.inactive, executionsHelp.active])
		expect(text).toMatch(/reach n8n's webhook URL.*WEBHOOK_URL/);
	expect(activationHint.inactive).toMatch(/publish/);
});

test('canvas subtitles in words, for every operation', () => {
	const resources = action.properties
		.find((property) => property.name === 'resource')
		.options.map((option) => option.value);
	const subtitleOf = (resource, operation) =>
		// The editor evaluates the expression with $parameter; the map in it is plain JSON.
		JSON.parse(action.subtitle.match(/\{\{ (\{.*\})\[/)[1])[`${resource}.${operation}`];
	for (const resource of resources) {
		const property = operations.find((candidate) =>
			candidate.displayOptions.show.resource.includes(resource),
		);
		for (const { value } of property.options)
			expect(subtitleOf(resource, value)).toMatch(/^[A-Z][a-z]+( [a-z]+)+$/);
	}
});

test('documentation links n8n opens as they are (no tracking query after an #anchor), and no codex subcategories', () => {
	const fs = require('node:fs');
	for (const [description, file] of [
		[action, 'InventoryOps.node.json'],
		[trigger, 'InventoryOpsTrigger.node.json'],
	]) {
		expect(description.documentationUrl).toMatch(/^https:\/\/.*#inventory-ops-(node|trigger)$/);
		const codex = JSON.parse(fs.readFileSync(path.join(DIST, 'nodes/InventoryOps', file), 'utf8'));
		expect(codex.subcategories).toBeUndefined();
	}
});

test('placeholders look like the data (ids are numbers such as 1002), and collections say "Add option" as n8n does now', () => {
	const all = [...action.properties, ...trigger.properties];
	const byName = (name) => all.filter((property) => property.name === name);
	for (const property of [...byName('storeId'), ...byName('orderNumber')])
		expect(property.placeholder).toMatch(/^e\.g\. \d+$/);
	for (const property of byName('options')) expect(property.placeholder).toBe('Add option');
});

test('no sticky note of an example covers a node (a node is drawn about 100 px square from its position)', () => {
	const fs = require('node:fs');
	const dir = path.resolve(__dirname, '../../examples');
	const covered = [];
	for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.json'))) {
		const { nodes } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		const stickies = nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
		for (const sticky of stickies) {
			const [x, y] = sticky.position;
			const { width = 240, height = 160 } = sticky.parameters;
			for (const node of nodes.filter(
				(candidate) => candidate.type !== 'n8n-nodes-base.stickyNote',
			)) {
				const [nx, ny] = node.position;
				if (nx + 100 > x && nx < x + width && ny + 100 > y && ny < y + height)
					covered.push(`${file}: ${node.name}`);
			}
		}
	}
	expect(covered).toEqual([]);
});

test("the trigger's canvas subtitle names the selected events in words, through n8n's own expression engine", () => {
	const { Workflow } = require('n8n-workflow');
	const node = {
		id: '1',
		name: 'Trigger',
		type: 'x.inventoryOpsTrigger',
		typeVersion: 1.1,
		position: [0, 0],
		parameters: {},
	};
	const nodeTypes = {
		getByNameAndVersion: () => new InventoryOpsTrigger(),
		getByName: () => new InventoryOpsTrigger(),
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const subtitleFor = (events) => {
		node.parameters = { events };
		return workflow.expression.getSimpleParameterValue(node, trigger.subtitle, 'internal', {});
	};
	expect(subtitleFor(['order.shipped', 'order.status.*'])).toBe(
		'Order Shipped, Order Status Changed',
	);
	expect(subtitleFor([])).toBe('');
});
