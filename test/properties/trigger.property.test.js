// Property: whatever arrives at the trigger's webhook (right, wrong or missing secret; bodies that
// are events, almost-events or junk: control characters, huge strings, deep nesting, prototype
// keys, wrong types, not JSON at all), the trigger answers 401, 400 or 200 and never crashes; only
// a delivery with the right secret and an event of a selected type starts a run, at most once per
// event id; neither the trigger's secret nor the access token appears in any answer or run (even
// with Include Headers on); deliveries send nothing to the service; and Object.prototype is never
// polluted. Real HTTP into the trigger's webhook() (see ../trigger/helpers/harness.js). The oracle
// is README's account of deliveries (expectedEvents below). Runs and seed: see hostile.js.
const { useTriggerHarness } = require('../trigger/helpers/setup');
const { fc, settings, text, tainted, hostile, expectNoPollution } = require('./hostile');

const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
const context = useTriggerHarness();

/**
 * `depth` levels of nesting: deep enough to matter, shallow enough for JSON.stringify in the
 * checks.
 */
const nestedBody = fc
	.tuple(fc.integer({ min: 100, max: 2000 }), fc.boolean())
	.map(([depth, arrays]) =>
		arrays
			? `${'['.repeat(depth)}1${']'.repeat(depth)}`
			: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
	);

const eventType = fc.oneof(
	fc.constantFrom(
		'order.shipped',
		'order.status.packed',
		'order.status.',
		'order.status',
		'order.created',
		' order.shipped',
		'',
	),
	tainted,
);
const eventId = fc.oneof(
	{ weight: 3, arbitrary: fc.uuid() },
	fc.constantFrom('', 'repeat-1', 'repeat-2'),
	hostile,
);
const jsonable = (value) => {
	try {
		return JSON.stringify(value) ?? 'null';
	} catch {
		return 'null';
	}
};

/**
 * README ("What the service leaves open", the body a handler receives) names the shapes a delivery
 * may take: an event `{ id, type, created_at, data }`, an envelope with other names, an array of
 * events, or the changed record alone. Each name of a role, as README lists them; an envelope below
 * uses one name per role.
 */
const NAMES = {
	type: ['type', 'event', 'event_type', 'topic'],
	id: ['id', 'event_id', 'delivery_id'],
	time: ['created_at', 'occurred_at', 'timestamp'],
	data: ['data', 'payload', 'object'],
};
const envelope = fc
	.record({
		names: fc.record(
			Object.fromEntries(
				Object.entries(NAMES).map(([role, names]) => [role, fc.constantFrom(...names)]),
			),
		),
		id: fc.option(eventId, { nil: undefined }),
		type: fc.option(eventType, { freq: 5, nil: undefined }),
		time: fc.option(text, { nil: undefined }),
		data: fc.option(hostile, { nil: undefined }),
	})
	.map(({ names, ...values }) =>
		Object.fromEntries(
			Object.entries(values)
				.filter(([, value]) => value !== undefined)
				.map(([role, value]) => [names[role], value]),
		),
	);

/**
 * Bodies as raw text: events, envelopes, arrays of them, records, prototype keys, nesting, junk.
 */
const body = fc.oneof(
	{
		weight: 4,
		arbitrary: fc
			.record(
				{ id: eventId, type: eventType, created_at: fc.option(text), data: hostile },
				{ requiredKeys: ['type'] },
			)
			.map(jsonable),
	},
	{ weight: 3, arbitrary: envelope.map(jsonable) },
	{
		weight: 2,
		arbitrary: fc
			.array(fc.oneof({ weight: 4, arbitrary: envelope }, hostile), { maxLength: 4 })
			.map(jsonable),
	},
	fc.constantFrom(
		'{"__proto__":{"polluted":"yes"},"type":"order.shipped","data":{"constructor":{"prototype":{"polluted":"yes"}}}}',
		'{"type":"order.shipped","id":{"__proto__":1}}',
		'{"type":["order.shipped"]}',
		'{"sku":"SKU-1","on_hand":4,"id":"item-1"}',
		'not json at all',
		'',
		'null',
		'[]',
	),
	nestedBody.map((nested) => `{"type":"order.shipped","data":${nested}}`),
	nestedBody,
	fc.string({ unit: 'binary', maxLength: 200 }),
);

const secretChoice = fc.constantFrom(
	'right',
	'right-name-uppercase',
	'wrong-case',
	'wrong-suffix',
	'truncated',
	'empty',
	'missing',
);
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

/**
 * The handler's registered type, which the service sends with every delivery of a handler this
 * trigger added.
 */
const EVENT_TYPE_HEADER = 'x-inventory-ops-event-type';
const registeredTypeHeader = fc.option(fc.constantFrom('order.shipped', 'order.status.*'), {
	freq: 2,
	nil: undefined,
});

/**
 * The first value among a role's names that the body holds (README gives no order; envelopes hold
 * one name).
 */
const firstOf = (object, role) =>
	NAMES[role].map((name) => object[name]).find((value) => value !== undefined);
const isText = (value) => typeof value === 'string' && value.trim() !== '';

/**
 * The oracle, from README's promises about deliveries: a body that is not JSON is refused (400);
 * otherwise every element (the body, or each member of an array) is one event. Its type is its own
 * (`type`, `event`, `event_type`, `topic`: text) or, for a body without one, the type of the
 * handler it was sent to; a delivery holding an element with neither is refused (400), as is
 * `null`. An event's id (`id`, `event_id`, `delivery_id`: text or a number) makes a repeat
 * recognisable; its data is its `data`/`payload`/`object` (none: `{}`, and the body is kept as
 * `rawBody`); a record alone is the data itself, with no event id. Undefined means 400.
 */
function expectedEvents(raw, registeredType) {
	let parsed;
	try {
		parsed = JSON.parse(raw);
	} catch {
		return undefined;
	}
	if (parsed === null) return undefined;
	const events = [];
	for (const element of Array.isArray(parsed) ? parsed : [parsed]) {
		const isObject = element !== null && typeof element === 'object' && !Array.isArray(element);
		const ownType = isObject ? firstOf(element, 'type') : undefined;
		if (isObject && isText(ownType)) {
			const id = firstOf(element, 'id');
			const data = firstOf(element, 'data');
			events.push({
				type: ownType,
				id: isText(id)
					? id
					: typeof id === 'number' && Number.isFinite(id)
						? String(id)
						: undefined,
				data: data ?? {},
				raw: NAMES.data.some((name) => Object.hasOwn(element, name)) ? undefined : element,
			});
		} else if (registeredType !== undefined) {
			events.push({ type: registeredType, id: undefined, data: element, raw: element });
		} else {
			return undefined;
		}
	}
	return events;
}

/** README: ids are remembered up to 1,000 per activation, the oldest forgotten first. */
function recentIds(limit = 1000) {
	const seen = new Set();
	return {
		repeated(id) {
			if (seen.has(id)) return true;
			seen.add(id);
			if (seen.size > limit) seen.delete(seen.values().next().value);
			return false;
		},
	};
}

const SELECTED = (type) =>
	type === 'order.shipped' ||
	(type.startsWith('order.status.') && type.length > 'order.status.'.length);

test('the delivery path with hostile deliveries', async () => {
	const { harness, sandbox } = context;
	const stored = harness.storedWorkflow({
		id: 'wf-property',
		name: 'Property',
		parameters: {
			events: ['order.shipped'],
			customEventTypes: 'order.status.*',
			options: { includeHeaders: true },
		},
	});
	await harness.activate(stored);
	const url = harness.webhookUrl(stored, false);
	const secret = harness.staticState(stored.staticData).registrations[url].secret;
	expect(secret).toMatch(/^[0-9a-f]{64}$/);
	const writeCount = async () =>
		(await harness.admin('GET', '/calls')).calls.filter((call) =>
			/add_handler|remove_handler/.test(call.route),
		).length;
	const writesBefore = await writeCount();
	expect(writesBefore).toBe(2); // one add_handler per selected type, nothing else

	const ids = recentIds();
	const tally = { runs: 0, unauthorized: 0, refused: 0, arrays: 0, records: 0 };
	await fc.assert(
		fc.asyncProperty(
			fc.array(fc.tuple(secretChoice, body, extraHeaders, registeredTypeHeader), {
				minLength: 1,
				maxLength: 5,
			}),
			async (deliveries) => {
				for (const [choice, raw, extra, registeredType] of deliveries) {
					const runsBefore = harness.runs.length;
					const typeHeader =
						registeredType === undefined ? {} : { [EVENT_TYPE_HEADER]: registeredType };
					const response = await fetch(url, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							...extra,
							...typeHeader,
							...secretHeaders(choice, secret),
						},
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
					const events = expectedEvents(raw, registeredType);
					expect(response.status).toBe(events === undefined ? 400 : 200);
					if (events === undefined) {
						expect(harness.runs.length).toBe(runsBefore);
						tally.refused++;
						continue;
					}
					if (raw.trimStart().startsWith('[')) tally.arrays++;
					if (events.some((event) => event.id === undefined && event.raw !== undefined))
						tally.records++;
					const started = events.filter(
						(event) => SELECTED(event.type) && !(event.id !== undefined && ids.repeated(event.id)),
					);
					expect(harness.runs.length - runsBefore).toBe(started.length > 0 ? 1 : 0);
					if (started.length === 0) continue;
					tally.runs++;
					const { items } = harness.runs.at(-1);
					expect(
						items.map((item) => [item.eventType, item.eventId, item.data, item.rawBody]),
					).toEqual(started.map((event) => [event.type, event.id ?? null, event.data, event.raw]));
					const output = JSON.stringify(harness.runs.at(-1));
					expect(output).not.toContain(secret);
					expect(output).not.toContain(sandbox.demoToken);
				}
			},
		),
		settings,
	);
	// Deliveries change nothing on the service: the only writes are the activation's add_handler
	// calls.
	expect(await writeCount()).toBe(writesBefore);
	// Every branch of the oracle was drawn (200 cases draw each many times).
	expect(tally).toEqual(expect.objectContaining({ runs: expect.any(Number) }));
	expect(Object.values(tally).every((count) => count > 0)).toBe(true);
});
