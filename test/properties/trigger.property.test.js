// Property: whatever arrives at the trigger's webhook (right, wrong or missing secret; bodies that are events,
// almost-events or junk: control characters, huge strings, deep nesting, prototype keys, wrong types, not JSON at
// all), the trigger answers 401, 400 or 200 and never crashes; only a delivery with the right secret and an event
// of a selected type starts a run, at most once per event id; neither the trigger's secret nor the access token
// appears in any answer or run (even with Include Headers on); deliveries send nothing to the service; and
// Object.prototype is never polluted. Real HTTP into the trigger's webhook() (see ../trigger/helpers/harness.js).
// Runs and seed: see hostile.js.
const { useTriggerHarness } = require('../trigger/helpers/setup');
const { fc, settings, text, tainted, hostile, expectNoPollution } = require('./hostile');

const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
const context = useTriggerHarness();

/** `depth` levels of nesting: deep enough to matter, shallow enough for JSON.stringify in the checks. */
const nestedBody = fc
	.tuple(fc.integer({ min: 100, max: 2000 }), fc.boolean())
	.map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

const eventType = fc.oneof(
	fc.constantFrom('order.shipped', 'order.status.packed', 'order.status.', 'order.status', 'order.created', ' order.shipped', ''),
	tainted,
);
const eventId = fc.oneof({ weight: 3, arbitrary: fc.uuid() }, fc.constantFrom('', 'repeat-1', 'repeat-2'), hostile);
const jsonable = (value) => {
	try {
		return JSON.stringify(value) ?? 'null';
	} catch {
		return 'null';
	}
};

/** Bodies as raw text: events, almost-events with hostile fields, prototype keys, nesting, junk. */
const body = fc.oneof(
	{ weight: 4, arbitrary: fc.record({ id: eventId, type: eventType, created_at: fc.option(text), data: hostile }, { requiredKeys: ['type'] }).map(jsonable) },
	fc.constantFrom(
		'{"__proto__":{"polluted":"yes"},"type":"order.shipped","data":{"constructor":{"prototype":{"polluted":"yes"}}}}',
		'{"type":"order.shipped","id":{"__proto__":1}}',
		'{"type":["order.shipped"]}',
		'not json at all',
		'',
		'null',
		'[]',
	),
	nestedBody.map((nested) => `{"type":"order.shipped","data":${nested}}`),
	nestedBody,
	fc.string({ unit: 'binary', maxLength: 200 }),
);

const secretChoice = fc.constantFrom('right', 'right-name-uppercase', 'wrong-case', 'wrong-suffix', 'truncated', 'empty', 'missing');
const extraHeaders = fc.dictionary(
	fc.constantFrom('x-forwarded-for', 'authorization', 'x-extra', 'cookie'),
	fc.string({ unit: fc.constantFrom(...'abc123 =;:/.'.split('')), maxLength: 40 }),
	{ maxKeys: 3 },
);

function secretHeaders(choice, secret) {
	switch (choice) {
		case 'right':
			return { [SECRET_HEADER]: secret };
		case 'right-name-uppercase':
			return { [SECRET_HEADER.toUpperCase()]: secret };
		case 'wrong-case':
			return { [SECRET_HEADER]: secret.toUpperCase() };
		case 'wrong-suffix':
			return { [SECRET_HEADER]: `${secret}0` };
		case 'truncated':
			return { [SECRET_HEADER]: secret.slice(0, -1) };
		case 'empty':
			return { [SECRET_HEADER]: '' };
		default:
			return {};
	}
}

function readEvent(raw) {
	try {
		return JSON.parse(raw);
	} catch {
		return undefined;
	}
}

const SELECTED = (type) => type === 'order.shipped' || (type.startsWith('order.status.') && type.length > 'order.status.'.length);

test('the delivery path with hostile deliveries', async () => {
	const { harness, sandbox } = context;
	const stored = harness.storedWorkflow({
		id: 'wf-property',
		name: 'Property',
		parameters: { events: ['order.shipped'], customEventTypes: 'order.status.*', options: { includeHeaders: true } },
	});
	await harness.activate(stored);
	const url = harness.webhookUrl(stored, false);
	const secret = harness.staticState(stored.staticData).registrations[url].secret;
	expect(secret).toMatch(/^[0-9a-f]{64}$/);
	const writeCount = async () =>
		(await harness.admin('GET', '/calls')).calls.filter((call) => /add_handler|remove_handler/.test(call.route)).length;
	const writesBefore = await writeCount();
	expect(writesBefore).toBe(2); // one add_handler per selected type, nothing else

	const startedIds = new Set();
	const tally = { runs: 0, unauthorized: 0, refused: 0 };
	await fc.assert(
		fc.asyncProperty(fc.array(fc.tuple(secretChoice, body, extraHeaders), { minLength: 1, maxLength: 5 }), async (deliveries) => {
			for (const [choice, raw, extra] of deliveries) {
				const runsBefore = harness.runs.length;
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...extra, ...secretHeaders(choice, secret) },
					body: raw,
				});
				const answer = await response.text();
				expect(answer).not.toContain(secret);
				expect(answer).not.toContain(sandbox.demoToken);
				expectNoPollution();

				const authorised = choice === 'right' || choice === 'right-name-uppercase';
				if (!authorised) {
					expect(response.status).toBe(401);
					expect(harness.runs.length).toBe(runsBefore);
					tally.unauthorized++;
					continue;
				}
				const event = readEvent(raw);
				const isEvent =
					event !== null &&
					typeof event === 'object' &&
					!Array.isArray(event) &&
					typeof event.type === 'string' &&
					event.type.trim() !== '' &&
					(event.id === undefined || typeof event.id === 'string');
				expect(response.status).toBe(isEvent ? 200 : 400);
				if (!isEvent) {
					expect(harness.runs.length).toBe(runsBefore);
					tally.refused++;
					continue;
				}
				const started = harness.runs.length - runsBefore;
				const repeated = event.id !== undefined && event.id !== '' && startedIds.has(event.id);
				expect(started).toBe(SELECTED(event.type) && !repeated ? 1 : 0);
				if (started === 0) continue;
				tally.runs++;
				if (event.id) startedIds.add(event.id);
				const [item] = harness.runs.at(-1).items;
				expect(item.eventType).toBe(event.type);
				expect(item.data).toEqual(event.data ?? {});
				const output = JSON.stringify(harness.runs.at(-1));
				expect(output).not.toContain(secret);
				expect(output).not.toContain(sandbox.demoToken);
			}
		}),
		settings,
	);
	// Deliveries change nothing on the service: the only writes are the activation's add_handler calls.
	expect(await writeCount()).toBe(writesBefore);
	expect(tally.runs > 0 && tally.unauthorized > 0 && tally.refused > 0).toBe(true);
});
