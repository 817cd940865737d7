// The one reading of the service's answers (transport/answers.ts), through n8n's engine against the
// sandbox over real HTTP, under each answer the sandbox can give to an open point: where
// add_handler puts the new id, `success: false` with 200, error bodies of every shape, and
// Retry-After in seconds, as a date, or absent.
const { useInventoryOps } = require('../helpers/inventoryOps');
const { sandboxCode } = require('../helpers/profile');

const KIT = '/api/kit/create';
const ADD = '/api/webhook/add_handler';
const REMOVE = '/api/webhook/remove_handler';
const ctx = useInventoryOps({ orders: 10 });

const kit = (sku = 'KIT-ANSWERS-1') => ({ resource: 'kit', operation: 'create', name: 'Kit', sku });
const add = {
	resource: 'webhookHandler',
	operation: 'add',
	eventType: 'order.shipped',
	name: 'Answers',
	url: 'https://example.com/hooks/answers',
	method: 'POST',
	headers: {},
};

describe('where add_handler puts the new id', () => {
	test.each(['top', 'nested'])(
		'%s: the output gives the _id, and removing by it removes the handler',
		async (place) => {
			await ctx.sandbox.config({ addHandlerId: place });
			const added = await ctx.run(add);
			expect(added.error).toBeUndefined();
			const [handler] = await ctx.sandbox.handlers();
			expect(added.items[0].json).toMatchObject({ _id: handler._id, idReturned: true });
			const removed = await ctx.run({
				resource: 'webhookHandler',
				operation: 'remove',
				handlerId: added.items[0].json._id,
			});
			expect(removed.items[0].json).toMatchObject({ success: true });
			expect(await ctx.sandbox.handlers()).toEqual([]);
		},
	);

	test('an id of spaces only is no id: the one nested below it is given', async () => {
		await ctx.sandbox.fault({
			route: ADD,
			count: 1,
			status: 200,
			body: { success: true, _id: '   ', handler: { _id: 'h-nested-7' } },
		});
		const added = await ctx.run(add);
		expect(added.items[0].json).toMatchObject({ _id: 'h-nested-7', idReturned: true });
	});

	test('none: the output says no id came back', async () => {
		await ctx.sandbox.config({ addHandlerId: 'none' });
		const added = await ctx.run(add);
		expect(added.items[0].json).toMatchObject({ idReturned: false });
		expect(added.items[0].json._id).toBeUndefined();
	});
});

describe('success: false with 200', () => {
	beforeEach(() => ctx.sandbox.config({ refusals: 'success-false' }));

	test('kit create: a failed item with the service message, nothing sent again', async () => {
		expect((await ctx.run(kit('KIT-TWICE'))).error).toBeUndefined();
		const result = await ctx.run(kit('kit-twice'), { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(
			/^The service refused \/kit\/create with success: false\. The service said: .*kit-twice/i,
		);
		expect((await ctx.sandbox.calls(KIT)).map((call) => call.status)).toEqual([200, 200]);
		expect(await ctx.sandbox.kits()).toHaveLength(1);
	});

	test('handler add: the error carries the service message', async () => {
		await ctx.sandbox.fault({ route: ADD, count: 1, status: 409 });
		const refused = await ctx.run(add);
		expect(refused.error).toMatchObject({
			name: 'NodeApiError',
			message:
				'The service refused /webhook/add_handler with success: false. The service said: Fault injected by the sandbox: 409.',
		});
		expect(await ctx.sandbox.calls(ADD)).toHaveLength(1);
	});

	// Not proof of an unknown handler (issues 51, 58): the run fails, and the error says the service
	// refused.
	test("handler remove: a bare success: false (the service's answer for an unknown handler here) fails the item", async () => {
		await ctx.sandbox.config({ removeUnknown: 'success-false' });
		const result = await ctx.run({
			resource: 'webhookHandler',
			operation: 'remove',
			handlerId: 'no-such-handler',
		});
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message:
				'The service refused /webhook/remove_handler with success: false. Nothing shows that the service does not know the handler: the answer held nothing to tell it apart. The handler may still exist: check it in Inventory Ops.',
			errorResponse: expect.objectContaining({ handlerGone: false }),
		});
		// An id the sandbox never issued: its calls list it only with the probes.
		expect(await ctx.sandbox.calls(REMOVE, { probes: true })).toHaveLength(1);
	});
});

describe('error bodies of every shape give message, code and trace id, never markup', () => {
	// The code the profile's service sends (switch errorCodes), if any: in text bodies it leads the
	// message.
	const code = sandboxCode('UNKNOWN_COMPONENT');
	test.each([
		['spec', true],
		['bare', true],
		['text', false],
	])('%s', async (errorBodies, structured) => {
		// A refusal sent as an error status (the profile may send it as 200 success: false, tested
		// above).
		await ctx.sandbox.config({ errorBodies, refusals: 'status' });
		const result = await ctx.run({
			...kit(),
			kitItems: { item: [{ itemId: 'nope', quantity: 1 }] },
		});
		const said = `${!structured && code ? `${code}: ` : ''}body.data.items[0]: no item with item_id "nope".`;
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '400',
			message: `The service refused /kit/create as invalid (400). The service said: ${said}`,
		});
		if (structured) {
			expect(result.error.description).toMatch(
				code
					? new RegExp(`The service's code: ${code}\\. Trace id: \\S+\\.$`)
					: /^Check the fields the service names\. Trace id: \S+\.$/,
			);
		}
	});

	test.each([
		['spec', (error) => ({ error })],
		['bare', (error) => error],
	])(
		"%s: the error object's origin, type, user_error and display reach the failed item's details",
		async (_, bodyOf) => {
			const fields = {
				origin: 'kit-service',
				type: 'ValidationError',
				user_error: true,
				display: 'panel',
			};
			await ctx.sandbox.fault({
				route: KIT,
				count: 1,
				status: 400,
				body: bodyOf({ message: 'Bad kit', ...fields }),
			});
			const { details } = (await ctx.run(kit(), { continueOnFail: true })).items[0].json;
			expect(details).toMatchObject({ ...fields, message: 'Bad kit', statusCode: 400 });
			// Each only as the type the service's description gives it: another type is not passed on as
			// if it were one.
			await ctx.sandbox.fault({
				route: KIT,
				count: 1,
				status: 400,
				body: bodyOf({ message: 'Bad kit', origin: 7, type: false, user_error: 'yes', display: 1 }),
			});
			const other = (await ctx.run(kit(), { continueOnFail: true })).items[0].json.details;
			expect(Object.keys(other)).toEqual(expect.not.arrayContaining(Object.keys(fields)));
		},
	);

	test('html: a gateway page gives its status and title, no markup', async () => {
		await ctx.sandbox.config({ errorBodies: 'html' });
		await ctx.sandbox.fault({ route: KIT, count: 1, status: 504 });
		const result = await ctx.run(kit());
		expect(result.error.httpCode).toBe('504');
		expect(result.error.message).toBe(
			'The service failed (504) during /kit/create. The answer was a web page titled "504 Gateway timeout", from a gateway or proxy. The service may or may not have applied this change, so it was not sent again: check the service before trying again.',
		);
		expect(`${result.error.message} ${result.error.description}`).not.toMatch(/[<>]/);
		expect(result.error.description).toContain('was not sent again');
	});
});

describe('an error body of text: a web page only when it is one, and then its title alone', () => {
	const pageTitled = (status, title) =>
		`The service failed (${status}) during /kit/create. The answer was a web page titled "${title}", from a gateway or proxy. The service may or may not have applied this change, so it was not sent again: check the service before trying again.`;

	test.each([
		[
			'with attributes, after other markup',
			'<meta charset="utf-8"><title lang="en">Down for maintenance</title>',
			'Down for maintenance',
		],
		[
			'missing: the heading, its tags and &nbsp; read as spaces',
			'<html><body><h1>502<br>Bad&nbsp;Gateway</h1></body></html>',
			'502 Bad Gateway',
		],
	])('a page whose title is %s', async (_, page, title) => {
		await ctx.sandbox.fault({ route: KIT, count: 1, status: 502, body: page });
		const result = await ctx.run(kit());
		expect(result.error.message).toBe(pageTitled(502, title));
	});

	test.each([
		['that names a tag after its code', 'INVALID_BODY:<body> must be JSON'],
		['of 300 characters, the most that is kept whole', `${'word '.repeat(59)}words`],
		// Sent JSON-encoded, so what the HTTP client parses is text in quotes: JSON, but no object or
		// list to read.
		['in quotes, holding brackets', JSON.stringify('"Quota [daily] exceeded"')],
	])('text %s is what the service said, as sent', async (_, body) => {
		await ctx.sandbox.fault({ route: KIT, count: 1, status: 400, body });
		const result = await ctx.run(kit());
		expect(result.error.httpCode).toBe('400');
		const said = body.startsWith('"') ? JSON.parse(body) : body;
		expect(result.error.message).toBe(
			`The service refused /kit/create as invalid (400). The service said: ${said}.`,
		);
	});
});

describe('Retry-After in every form: a 429 is retried, once, and the kit made once', () => {
	test.each(['seconds', 'date', 'absent'])('%s', async (retryAfter) => {
		await ctx.sandbox.config({ retryAfter });
		await ctx.sandbox.fault({ route: KIT, count: 1, status: 429, retryAfter: 1 });
		const result = await ctx.run(kit());
		expect(result.error).toBeUndefined();
		expect((await ctx.sandbox.calls(KIT)).map((call) => call.status)).toEqual([429, 200]);
		expect(await ctx.sandbox.kits()).toHaveLength(1);
	});
});
