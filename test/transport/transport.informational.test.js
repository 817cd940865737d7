// A 1xx answer to a restore (issue 59), from a raw socket server (node:net) that writes the status
// line itself: what no HTTP server library would send, and what a broken proxy may. n8n's HTTP
// client (axios on Node's http) hands a bare 101 (no Upgrade) over as the answer, with no body; a
// 102 or 103 is informational, so the client waits for the final answer, or for the connection to
// close, or for the time-out.
//
// Guards two mutants. nodes/InventoryOps/transport/index.ts, callService, the success check
//   `status >= 200 && status < 300 && refusal === undefined`
// with `status >= 200` -> `true`: a bare 101 would read as a success whose answer is unreadable
// ("probably applied") instead of as the status it is. nodes/InventoryOps/transport/outcome.ts,
// readingOf's fallback for a status it has no reading for
//   `['The service answered {status} to {path}', '']`
// with the '' -> "Stryker was here!": a 101 has no advice, so no description. The reading comes
// from nodes/InventoryOps/transport/verdicts.ts, appliedVerdict: an answer below 500 that is read
// is 'no'.
const net = require('node:net');

const { useInventoryOps } = require('../helpers/inventoryOps');

const ctx = useInventoryOps({ orders: 10 });

/**
 * A server answering each request with `reply(socket)`; `requests` counts the requests it received.
 */
function useRawServer() {
	const raw = { reply: undefined, requests: 0, server: undefined, sockets: new Set() };
	beforeAll(async () => {
		raw.server = net.createServer((socket) => {
			raw.sockets.add(socket);
			socket.on('close', () => raw.sockets.delete(socket));
			socket.on('error', () => {});
			let seen = '';
			socket.on('data', (chunk) => {
				if (seen.includes('\r\n\r\n')) return;
				seen += chunk.toString('latin1');
				if (!seen.includes('\r\n\r\n')) return;
				raw.requests += 1;
				raw.reply(socket);
			});
		});
		await new Promise((resolve) => raw.server.listen(0, '127.0.0.1', resolve));
	});
	beforeEach(() => {
		raw.requests = 0;
	});
	afterEach(() => {
		for (const socket of raw.sockets) socket.destroy();
	});
	afterAll(() => new Promise((resolve) => raw.server.close(resolve)));
	raw.appBaseUrl = () => `http://127.0.0.1:${raw.server.address().port}/s`;
	return raw;
}
const raw = useRawServer();

// The restore goes to the raw server (the App Base URL); its time-out is short, for the answers
// that never end.
const restore = {
	resource: 'shipment',
	operation: 'restoreInventory',
	storeId: '1001',
	orderNumber: '1000',
	shipmentId: 'shipment-1',
	options: { timeout: 1000 },
};
const run = () =>
	ctx.run(restore, {
		credentials: { ...ctx.sandbox.credentials(), appBaseUrl: raw.appBaseUrl() },
		continueOnFail: true,
	});

const MAYBE =
	'The service may or may not have applied this change, so it was not sent again: check the service before trying again.';

describe('a bare 101 Switching Protocols (no Upgrade header): read as the status it is, not as a success, and the restore may have been made', () => {
	test.each([
		[
			'then the connection closes',
			(socket) => socket.end('HTTP/1.1 101 Switching Protocols\r\n\r\n'),
		],
		[
			'and the connection stays open',
			(socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\n\r\n'),
		],
	])('%s', async (_, reply) => {
		raw.reply = reply;
		const { items } = await run();
		expect(items).toEqual([
			{
				json: {
					// A 1xx is no final answer: it shows neither that the restore was made nor that it was
					// not.
					error: `The service answered 101 to /ship/shipping/restore_inventory. ${MAYBE}`,
					details: {
						description: MAYBE,
						httpCode: '101',
						statusCode: 101,
						endpoint: '/ship/shipping/restore_inventory',
						outcome: 'refused',
						changeApplied: 'maybe',
					},
				},
				pairedItem: { item: 0 },
			},
		]);
		// A restore is never sent again.
		expect(raw.requests).toBe(1);
	});
});

describe('an informational 102 Processing: the client waits for the final answer, which never comes', () => {
	test('the connection closes after it: no answer, the restore may have been made', async () => {
		raw.reply = (socket) => socket.end('HTTP/1.1 102 Processing\r\n\r\n');
		const [item] = (await run()).items;
		expect(item.json.error).toBe(
			`The connection to the service was lost during /ship/shipping/restore_inventory before an answer arrived. ${MAYBE}`,
		);
		expect(item.json.details).toMatchObject({
			description: MAYBE,
			outcome: 'noAnswer',
			changeApplied: 'maybe',
			sent: true,
			timedOut: false,
		});
		expect(raw.requests).toBe(1);
	});

	test('the connection stays open: the time-out, and the restore may have been made', async () => {
		raw.reply = (socket) => socket.write('HTTP/1.1 102 Processing\r\n\r\n');
		const [item] = (await run()).items;
		expect(item.json.error).toBe(
			`The service did not answer /ship/shipping/restore_inventory in time. ${MAYBE}`,
		);
		expect(item.json.details).toMatchObject({
			description: MAYBE,
			outcome: 'noAnswer',
			changeApplied: 'maybe',
			sent: true,
			timedOut: true,
		});
		expect(raw.requests).toBe(1);
	});
});

test('a 103 Early Hints before a 200: the 200 is the answer, and the restore succeeds', async () => {
	const answer = JSON.stringify({
		_id: 'order-1',
		shipments: [{ _id: 'shipment-1', deducted: false, request: { order_items: [] } }],
	});
	raw.reply = (socket) =>
		socket.end(
			`HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(answer)}\r\n\r\n${answer}`,
		);
	const [item] = (await run()).items;
	expect(item.json).toMatchObject({ restored: true, _id: 'order-1' });
	expect(item.json.error).toBeUndefined();
	expect(raw.requests).toBe(1);
});
