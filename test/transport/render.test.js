// Every kind of failure through every place the user reads it (transport/render.ts), built by the
// transport's own readers (transport/outcome.ts) and rendered into n8n's real error classes: n8n
// 2.x shows an error's message, 1.x its description, and a trigger's log line or publish error has
// one text. Whatever a failure leaves in doubt (the change may have been applied; the handler may
// still exist) must be in each of them, and its advice wherever there is room for it. The same
// texts through a real n8n: e2e/scenarios (both lines).
const path = require('node:path');

const dist = (file) =>
	require(path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport', file));
const outcome = dist('outcome.js');
const render = dist('render.js');

const node = {
	id: 'n',
	name: 'Inventory Ops',
	type: 'inventoryOps',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const page = (title) =>
	`<!doctype html><html><head><title>${title}</title></head><body></body></html>`;
const kit = { endpoint: 'kitCreate', itemIndex: 3 };
const lookup = { endpoint: 'orderGetSingleBulk', itemIndex: 0 };
const remove = { endpoint: 'webhookRemoveHandler' };
// The credential test's checks: what they send changes nothing, whatever the operation beside it
// does.
const lookUpCheck = {
	endpoint: 'orderGetSingleBulk',
	at: 'http://user:secret@inventory.example/api/order/get_single_bulk',
};
const appCheck = {
	endpoint: 'shipmentRestoreInventory',
	at: 'http://inventory.example/s/ship/shipping/no-such-operation-n8n-path-check',
};
const beside = {
	url: 'http://user:secret@inventory.example/api/order/no-such-operation-n8n-path-check',
	status: 401,
	compared: true,
	same: true,
};

const MAY_HAVE =
	/The service may or may not have applied this change, so it was not sent again: check the service before trying again\./;
const PROBABLY =
	/The success status says the change was probably applied, so it was not sent again: check the service before trying again\./;
const HANDLER_MAY_EXIST =
	/Nothing shows that the service does not know the handler: .+\. The handler may still exist: check /;

// [what, failure, the doubt that must reach every place (or none), advice, words of the answer]
const cases = [
	[
		'a write refused (400)',
		outcome.failureFromAnswer(400, { error: { message: 'sku missing', code: 'V1' } }, kit),
		undefined,
		/Check the fields the service names\./,
		/The service said: sku missing\./,
	],
	[
		'a write the service failed (502, a page)',
		outcome.failureFromAnswer(502, page('502 Bad Gateway'), kit),
		MAY_HAVE,
		undefined,
		/web page titled "502 Bad Gateway"/,
	],
	[
		'a read the service failed (500)',
		outcome.failureFromAnswer(500, { error: { message: 'boom' } }, lookup),
		undefined,
		/This call only reads data: run it again later\./,
		/boom/,
	],
	[
		'a token refused (401)',
		outcome.failureFromAnswer(401, { error: { message: 'bad token' } }, kit),
		undefined,
		/Check the Access Token in the credential\./,
		/bad token/,
	],
	[
		'a 401 page from a gateway',
		outcome.failureFromAnswer(401, page('401 Unauthorized'), kit),
		undefined,
		/A gateway or proxy may answer at that address: check the Base URL, then the Access Token/,
		/"401 Unauthorized"/,
	],
	[
		'a rate limit that lasts (429)',
		outcome.failureFromAnswer(
			429,
			{ error: { message: 'slow' } },
			{ ...kit, notes: ['Rate limited (429): waited 30 s of the 30 s allowed.'] },
		),
		undefined,
		/Try again later/,
		/slow/,
	],
	[
		'a write with no answer',
		outcome.failureFromNetwork({ cause: { code: 'ECONNRESET' } }, kit),
		MAY_HAVE,
		undefined,
		undefined,
	],
	[
		'a write that timed out',
		outcome.failureFromNetwork({ message: 'timeout of 100ms exceeded' }, kit),
		MAY_HAVE,
		undefined,
		undefined,
	],
	[
		'a read with no answer',
		outcome.failureFromNetwork({ cause: { code: 'ECONNRESET' } }, lookup),
		undefined,
		/This call only reads data: run it again\./,
		undefined,
	],
	[
		'a write not sent: nothing listens',
		outcome.failureFromNetwork({ message: 'connect ECONNREFUSED 127.0.0.1:1' }, kit),
		undefined,
		/Nothing was sent \(connect ECONNREFUSED 127\.0\.0\.1:1\), so nothing changed: check the Base URL/,
		undefined,
	],
	[
		"a write not sent: n8n's SSRF protection",
		outcome.failureFromNetwork({ name: 'SsrfBlockedIpError', message: 'blocked' }, kit),
		undefined,
		/N8N_SSRF_ALLOWED_HOSTNAMES/,
		undefined,
	],
	[
		'a write the node would not send',
		outcome.notSent("'Retry On Fail' is on", 'Turn off Retry On Fail.', kit),
		undefined,
		/Turn off Retry On Fail\./,
		undefined,
	],
	[
		'a write answered unreadably',
		outcome.failureFromUnreadable('text "OK" where an object was expected', kit),
		PROBABLY,
		undefined,
		/text "OK"/,
	],
	[
		'a read answered unreadably',
		outcome.failureFromUnreadable('an empty object where a list was expected', lookup),
		undefined,
		/This call only reads data; nothing was changed\./,
		undefined,
	],
	[
		'a removal answered 404, nothing proving the handler gone',
		outcome.failureFromAnswer(404, page('404'), {
			...remove,
			handler: { gone: false, evidence: 'the answer was a web page', check: 'check the Base URL.' },
		}),
		HANDLER_MAY_EXIST,
		undefined,
		/"404"/,
	],
	[
		'a removal refused without a reason',
		outcome.failureFromAnswer(
			200,
			{ success: false },
			{
				...remove,
				handler: {
					gone: false,
					evidence: 'the service refused without a reason',
					check: 'check the handler in Inventory Ops.',
				},
			},
		),
		HANDLER_MAY_EXIST,
		undefined,
		undefined,
	],
	[
		'a removal whose 404 proves the handler gone',
		outcome.failureFromAnswer(
			404,
			{ error: { message: 'no handler 1' } },
			{ ...remove, handler: { gone: true, evidence: 'its answer differs' } },
		),
		undefined,
		/The service does not know this handler: its answer differs\. It is gone already, or the ID is wrong\./,
		/no handler 1/,
	],
	[
		'a credential check rate limited for good',
		outcome.failureFromAnswer(
			429,
			{},
			{
				...lookUpCheck,
				reading: 'rateLimited',
				notes: outcome.waitNotes({ waitedMs: 1500, policy: { maxTotalWaitMs: 5000 } }, '120'),
			},
		),
		undefined,
		/Test again soon: this says nothing about the credential\. Rate limited \(429\): waited 1\.5 s of the 5 s allowed; the service asked for Retry-After: 120\./,
		/rate limiting \(429\) http:\/\/inventory\.example\/api/,
	],
	[
		'a credential check the service failed (503, a page)',
		outcome.failureFromAnswer(503, page('503 Down'), appCheck),
		undefined,
		/This call only reads data: run it again later\./,
		/web page titled "503 Down"/,
	],
	[
		'a credential check not sent: nothing listens',
		outcome.failureFromNetwork({ message: 'connect ECONNREFUSED 127.0.0.1:1' }, appCheck),
		undefined,
		/check the App Base URL in the credential, and that n8n can reach the service\./,
		/no-such-operation-n8n-path-check was not sent/,
	],
	[
		'a credential check with no answer',
		outcome.failureFromNetwork({ message: 'timeout of 100ms exceeded' }, appCheck),
		undefined,
		/No answer came \(timeout of 100ms exceeded\): check the App Base URL, and that n8n can reach the service\./,
		undefined,
	],
	[
		'a credential check answered as a path nothing serves, naming it',
		outcome.failureFromAnswer(
			404,
			{ error: { message: 'No route' } },
			{ ...lookUpCheck, beside, reading: 'wrongAddress' },
		),
		undefined,
		/Use your account's API address \(usually ending in \/api\), without the operation path\./,
		/Wrong Base URL: .*; http:\/\/inventory\.example\/api\/order\/no-such-operation-n8n-path-check, a path nothing serves, answered the same/,
	],
	[
		'a credential check whose 401 is also the answer of a path nothing serves',
		outcome.failureFromAnswer(
			401,
			{ error: { message: 'login' } },
			{ ...lookUpCheck, accessToken: 'x', beside, unserved: true },
		),
		undefined,
		/check the Base URL, then the Access Token in the credential\./,
		/The access token is not confirmed: .* not the service refusing it\. The service said: login\./,
	],
];

const places = {
	"n8n 2.x: the error's message": (failure) => render.nodeErrorOf(node, failure).message,
	"n8n 1.x: the error's description": (failure) => render.nodeErrorOf(node, failure).description,
	"a trigger's log line": (failure) => render.fullTextOf(failure),
	'a publish error': (failure) =>
		render.publishErrorOf(node, failure, `Publishing failed. ${render.fullTextOf(failure)}`)
			.message,
	"the credential test's verdict": (failure) => render.credentialVerdictOf([failure]).message,
};
const roomForAdvice = new Set([
	"n8n 1.x: the error's description",
	"a trigger's log line",
	'a publish error',
	"the credential test's verdict",
]);
const saysTheAnswer = new Set([
	"n8n 2.x: the error's message",
	"a trigger's log line",
	'a publish error',
	"the credential test's verdict",
]);

describe.each(cases)('%s', (_, failure, doubt, advice, said) => {
	test('its doubt, and only a real one, comes from the failure itself', () => {
		expect(render.doubtsOf(failure).join(' ')).toMatch(doubt ?? /^$/);
	});

	test.each(Object.keys(places))('%s', (place) => {
		const text = places[place](failure);
		if (doubt) expect(text).toMatch(doubt);
		if (advice && roomForAdvice.has(place)) expect(text).toMatch(advice);
		if (said && saysTheAnswer.has(place)) expect(text).toMatch(said);
		// Each sentence once, and never the markup of a page.
		const sentences = text.split(/(?<=\.)\s+/);
		expect(sentences.filter((sentence, index) => sentences.indexOf(sentence) !== index)).toEqual(
			[],
		);
		expect(text).not.toMatch(/<[a-z]/i);
		// Never a password from an address.
		expect(text).not.toContain('secret');
	});
});

test("the credential test's verdict: Error with its failure first, then what the checks before it proved; OK with what each proved", () => {
	const works = outcome.passedCheck('works', 200, [], {
		...lookUpCheck,
		notes: outcome.waitNotes({ waitedMs: 1000, policy: { maxTotalWaitMs: 5000 } }),
	});
	const answers = outcome.passedCheck(
		'appAnswers',
		404,
		{ error: { message: 'No route' } },
		{ ...appCheck, notes: [outcome.SAME_ADDRESS_NOTE] },
	);
	const failed = outcome.failureFromAnswer(502, {}, appCheck);
	expect(render.credentialVerdictOf([works, failed])).toEqual({
		status: 'Error',
		message: `${render.fullTextOf(failed)} The access token works: the service accepted an empty order lookup at http://inventory.example/api/order/get_single_bulk. Rate limited (429): waited 1 s of the 5 s allowed.`,
	});
	expect(render.credentialVerdictOf([works, answers])).toEqual({
		status: 'OK',
		message:
			"The access token works: the service accepted an empty order lookup at http://inventory.example/api/order/get_single_bulk. Rate limited (429): waited 1 s of the 5 s allowed. The App Base URL answers and did not refuse the access token: http://inventory.example/s/ship/shipping/no-such-operation-n8n-path-check, a path beside the restore path that no operation serves, answered 404 in the service's error shape. The service said: No route. Only a first real restore proves that restores work there: the test sends none, since a restore changes data. It is the same address as the Base URL: an account's App Base URL usually differs, ending in /s.",
	});
	expect(
		render.credentialVerdictOf([outcome.notAnAddress('App Base URL', 'ftp://user:secret@files')]),
	).toEqual({
		status: 'Error',
		message: `The credential's App Base URL is "ftp://files", not an http(s) address: nothing was sent. Set App Base URL in the credential to the service's https:// (or http://) address, for example https://inventory.example.com/s.`,
	});
});

test("the error n8n gets: NodeApiError with the status and the details for the service's answers, NodeOperationError for the node's own refusal", () => {
	const refused = render.nodeErrorOf(
		node,
		outcome.failureFromAnswer(409, { error: { message: 'dup', code: 'C' } }, kit),
	);
	expect(refused).toMatchObject({
		name: 'NodeApiError',
		httpCode: '409',
		context: { itemIndex: 3 },
	});
	expect(refused.errorResponse).toMatchObject({
		statusCode: 409,
		endpoint: '/kit/create',
		code: 'C',
		message: 'dup',
	});
	const lost = render.nodeErrorOf(
		node,
		outcome.failureFromNetwork({ cause: { code: 'ECONNRESET' } }, kit),
	);
	expect(lost.errorResponse).toMatchObject({
		networkError: 'ECONNRESET',
		sent: true,
		changesData: true,
	});
	const own = render.nodeErrorOf(node, outcome.notSent('Not sent', 'Do this.', kit));
	expect(own).toMatchObject({
		name: 'NodeOperationError',
		message: 'Not sent.',
		description: 'Do this.',
		context: { itemIndex: 3 },
	});
});
