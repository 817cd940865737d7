// The trigger's pure pieces, from the compiled package: event type matching, the handler id search,
// the secret check.
const path = require('node:path');

const DIST = path.resolve(__dirname, '../../dist/nodes/InventoryOps');
const { matchesEventType, parseCustomEventTypes, EVENT_TYPE_OPTIONS } = require(
	path.join(DIST, 'shared/events.js'),
);
const { findHandlerId } = require(path.join(DIST, 'transport/answers.js'));
const { secretMatches } = require(path.join(DIST, 'trigger/delivery.js'));
const { useFakeClock } = require('../helpers/fakeClock');
const createSecret = () => require('node:crypto').randomBytes(32).toString('hex');

describe('matchesEventType', () => {
	test.each([
		['order.shipped', 'order.shipped', true],
		['order.shipped', 'order.shipped.late', false],
		['order.shipped', 'order.tracking', false],
		['order.status.*', 'order.status.shipped', true],
		['order.status.*', 'order.status.on_hold.manual', true],
		['order.status.*', 'order.status', false],
		['order.status.*', 'order.statusx.shipped', false],
		['order.status.*', 'order.shipped', false],
		['purchase_order.*', 'purchase_order.received', true],
		['transfer_order.*', 'purchase_order.received', false],
		['custom.thing', 'custom.thing', true],
	])('%s vs %s -> %s', (pattern, type, expected) => {
		expect(matchesEventType(pattern, type)).toBe(expected);
	});

	test('every listed pattern is offered with a name and a description', () => {
		// In the order of their names (alphabetical, as n8n's lint asks).
		expect(EVENT_TYPE_OPTIONS.map((option) => option.value)).toEqual([
			'item.inventory',
			'item.updated',
			'order.shipped',
			'order.status.*',
			'order.tags',
			'order.tracking',
			'purchase_order.*',
			'shipment.created',
			'shipment.voided',
			'transfer_order.*',
		]);
		for (const option of EVENT_TYPE_OPTIONS) {
			// The type the service sends is shown in brackets (the name stays words: the node panel is
			// built from it).
			expect(option.description).toContain(`(${option.value})`);
		}
	});

	test('custom types are split and trimmed', () => {
		expect(parseCustomEventTypes(' order.created,\norder.status.* ,, ')).toEqual([
			'order.created',
			'order.status.*',
		]);
	});
});

describe('findHandlerId', () => {
	test.each([
		[{ success: true, _id: 'h1' }, 'h1'],
		[{ success: true, id: 'h2' }, 'h2'],
		[{ success: true, handler_id: 'h3' }, 'h3'],
		[{ success: true, handler: { _id: 'h4' } }, 'h4'],
		[{ success: true, data: { id: 42 } }, '42'],
		[{ success: true, webhook: { _id: 'h6' } }, 'h6'],
		[{ success: true, handlerId: 'h8' }, 'h8'],
		[{ success: true, result: { handler_id: 'h9' } }, 'h9'],
		[{ success: true }, undefined],
		[{ success: true, _id: '' }, undefined],
		['h7', undefined],
		[null, undefined],
	])('%j -> %s', (answer, expected) => {
		expect(findHandlerId(answer)).toBe(expected);
	});
});

describe('secretMatches', () => {
	const secret = createSecret();

	test.each([
		['the same secret', secret, true],
		['another secret', createSecret(), false],
		['a prefix', secret.slice(0, 10), false],
		['a longer value', `${secret}0`, false],
		['the same length with a character of two bytes', `${secret.slice(0, 63)}é`, false],
		['an empty header', '', false],
		['no header', undefined, false],
		['a repeated header', [secret, secret], false],
	])('%s', (_label, received, expected) => {
		expect(secretMatches(secret, received)).toBe(expected);
	});

	test('fails closed when no secret is stored', () => {
		expect(secretMatches('', '')).toBe(false);
		expect(secretMatches('', undefined)).toBe(false);
		expect(secretMatches('', 'anything')).toBe(false);
	});
});

describe('repeated deliveries are remembered per registration, within bounds', () => {
	const { isRepeatedDelivery } = require(path.join(DIST, 'trigger/delivery.js'));
	const registration = (url, secret) => ({ url, secret });

	test('500 registrations are remembered; the 501st makes the oldest forget its ids', () => {
		const key = (n) =>
			registration(`https://n8n.example/webhook/units-${n}`, `${String(n).padStart(16, '0')}ffff`);
		expect(isRepeatedDelivery(key(0), 'event-1')).toBe(false);
		expect(isRepeatedDelivery(key(0), 'event-1')).toBe(true);
		for (let n = 1; n < 500; n++) isRepeatedDelivery(key(n), 'event-1');
		expect(isRepeatedDelivery(key(0), 'event-1')).toBe(true);
		isRepeatedDelivery(key(500), 'event-1');
		expect(isRepeatedDelivery(key(0), 'event-1')).toBe(false);
		expect(isRepeatedDelivery(key(499), 'event-1')).toBe(true);
	});

	test('a registration remembers its last 1,000 event ids', () => {
		const key = registration('https://n8n.example/webhook/units-ids', 'abcdef0123456789ffff');
		for (let n = 0; n < 1000; n++) isRepeatedDelivery(key, `id-${n}`);
		expect(isRepeatedDelivery(key, 'id-0')).toBe(true);
		isRepeatedDelivery(key, 'id-1000');
		expect(isRepeatedDelivery(key, 'id-0')).toBe(false);
		expect(isRepeatedDelivery(key, 'id-2')).toBe(true);
		expect(isRepeatedDelivery(key, 'id-1000')).toBe(true);
	});
});

test('a handler is named by its name, id (or none), event type and URL, with how to remove it by hand', () => {
	const { describeHandler, removeByHand, unremovableNotice } = require(
		path.join(DIST, 'trigger/removal.js'),
	);
	const withoutId = {
		name: 'n8n: Orders - order.shipped',
		type: 'order.shipped',
		url: 'https://n8n.example/webhook/x',
	};
	expect(describeHandler(withoutId)).toBe(
		'"n8n: Orders - order.shipped" (no id, event type order.shipped, URL https://n8n.example/webhook/x)',
	);
	expect(describeHandler({ name: 'h', type: 't', id: 'abc', url: 'u' })).toBe(
		'"h" (id abc, event type t, URL u)',
	);
	expect(removeByHand({ id: 'abc' })).toBe(
		"To remove it by hand, run the Inventory Ops node's Webhook Handler → Remove with ID abc, or find it by its name in Inventory Ops and remove it there.",
	);
	expect(unremovableNotice(withoutId)).toBe(
		'This trigger cannot remove the webhook handler "n8n: Orders - order.shipped" (no id, event type order.shipped, URL https://n8n.example/webhook/x). To remove it by hand, find it by its name in Inventory Ops and remove it there.',
	);
});

describe('static data (restored, copied or edited by hand) is read field by field', () => {
	const { readState } = require(path.join(DIST, 'trigger/state.js'));
	const clock = useFakeClock();
	const url = 'https://n8n.example.com/webhook/abc/webhook';
	const handler = { type: 'order.shipped', url, id: 'h1', name: 'n', kind: 'production' };
	const stored = (registration, leftovers = []) => ({
		inventoryOpsTrigger: { registrations: { [url]: registration }, leftovers },
	});

	test('handler fields of the wrong type become absent or empty; handlers without a type or URL are dropped', () => {
		const state = readState(
			stored(
				{
					kind: 'production',
					secret: 's',
					handlers: [{ ...handler, id: 5, name: 7 }, { url }, 'x'],
				},
				[{ ...handler, id: '', kind: 'test' }],
			),
		);
		expect(state.registrations[url].handlers).toEqual([
			{ type: 'order.shipped', url, id: undefined, name: '', kind: 'production' },
		]);
		expect(state.leftovers).toEqual([
			{ ...handler, id: undefined, kind: 'test', tries: 0, keptSince: Date.now() },
		]);
	});

	// A leftover's life (trigger/removal.ts): a record without them, or with values no run writes,
	// starts counting now.
	test("a leftover's tries and first-kept time: whole numbers above 0 and past times kept, anything else read as none yet", () => {
		const now = 10_000_000;
		clock.now = now;
		const read = (fields) => {
			const [{ tries, keptSince }] = readState(
				stored({ secret: 's', handlers: [] }, [{ ...handler, ...fields }]),
			).leftovers;
			return [tries, keptSince];
		};
		expect(read({ tries: 3, keptSince: 1000 })).toEqual([3, 1000]);
		expect(read({ tries: 1, keptSince: 0 })).toEqual([1, 0]);
		expect(read({})).toEqual([0, now]);
		expect(read({ tries: 0, keptSince: -1 })).toEqual([0, now]);
		expect(read({ tries: -2, keptSince: '1000' })).toEqual([0, now]);
		expect(read({ tries: 2.5, keptSince: Number.NaN })).toEqual([0, now]);
		expect(read({ tries: '4', keptSince: now + 86_400_000 })).toEqual([0, now]);
		// A registration's handlers carry neither: only a leftover counts.
		expect(
			readState(stored({ secret: 's', handlers: [{ ...handler, tries: 3, keptSince: 5 }] }))
				.registrations[url].handlers[0],
		).not.toHaveProperty('tries');
	});

	test('the kept Options: only false turns repeats off and only true turns headers on; missing means the defaults', () => {
		const options = (fields) => {
			const { ignoreRepeats, includeHeaders } = readState(
				stored({ secret: 's', handlers: [], ...fields }),
			).registrations[url];
			return { ignoreRepeats, includeHeaders };
		};
		expect(options({ ignoreRepeats: false, includeHeaders: true })).toEqual({
			ignoreRepeats: false,
			includeHeaders: true,
		});
		expect(options({ ignoreRepeats: 'no', includeHeaders: 1 })).toEqual({
			ignoreRepeats: true,
			includeHeaders: false,
		});
		expect(options({})).toEqual({ ignoreRepeats: true, includeHeaders: false });
	});

	test('registrations: only own keys that hold an object; a missing or broken record reads as none', () => {
		const urls = (staticData) => Object.keys(readState(staticData).registrations);
		expect(
			readState(stored({ secret: 's', handlers: [handler] })).registrations[url],
		).toMatchObject({ url, secret: 's', kind: 'production' });
		expect(urls({ inventoryOpsTrigger: { registrations: 'x' } })).toEqual([]);
		expect(urls({ inventoryOpsTrigger: 'x' })).toEqual([]);
		expect(urls({})).toEqual([]);
		expect(urls(stored('not an object'))).toEqual([]);
		// A key inherited from Object's prototype is not a registration.
		expect(
			urls({
				inventoryOpsTrigger: {
					registrations: Object.create({ [url]: { secret: 's', handlers: [] } }),
				},
			}),
		).toEqual([]);
	});
});

// The probe's id (trigger/removal.ts): one the service would take as well-formed, and that no live
// handler has.
describe('unknownIdLike: a random id in the shape of the ids the service gives', () => {
	const { unknownIdLike } = require(path.join(DIST, 'trigger/removal.js'));
	const many = (id) => Array.from({ length: 40 }, () => unknownIdLike(id));

	test.each([
		['a lower-case hex id (a MongoDB ObjectId)', '65a1f2c3d4e5f60718293a4b', /^[0-9a-f]{24}$/],
		['an upper-case hex id', '65A1F2C3D4E5F60718293A4B', /^[0-9A-F]{24}$/],
		[
			'a UUID: its dashes stay in place',
			'550e8400-e29b-41d4-a716-446655440000',
			/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
		],
		['digits alone', '100000000100000010000003', /^\d{24}$/],
		['letters and digits', 'abcDEF123456789xyz', /^[0-9A-Za-z]{18}$/],
	])('%s', (_, id, shape) => {
		const ids = many(id);
		for (const made of ids) expect(made).toMatch(shape);
		// Random: 40 draws, all different from the id and from each other.
		expect(new Set(ids).size).toBe(40);
		expect(ids).not.toContain(id);
	});

	test('the alphabet is the smallest that holds the id: a letter comes up where the id has letters', () => {
		// Letters beyond hex: letters and digits of either case, the smallest alphabet listed that
		// holds them.
		expect(many('abcdefghijklmnopqrstuvwxyz').join('')).toMatch(/[g-z]/);
		expect(many('abcDEF123456789xyz').join('')).toMatch(/[g-zG-Z]/);
	});

	test('too few random bits to be safe from a live id: none (64 bits is enough: 16 hex digits)', () => {
		expect(unknownIdLike('17')).toBeUndefined();
		expect(unknownIdLike('')).toBeUndefined();
		expect(unknownIdLike('0123456789abcde')).toBeUndefined();
		expect(unknownIdLike('0123456789abcdef')).toMatch(/^[0-9a-f]{16}$/);
	});
});
