// Issue 58: the credential test behind a gateway that answers every path it does not route with the
// same refusal (AWS API Gateway: 403 "Missing Authentication Token"; others 401). The test's App
// Base URL check is at a path beside the restore path, which nothing serves, so such a gateway
// refuses it whatever the token: once the empty lookup at the Base URL has proven the token, that
// refusal no longer fails the test. A refused token still fails. The sandbox plays the gateway with
// a fault on the paths it does not serve (`route: 'unserved'`, sandbox/README.md).
const { CREDENTIAL_TYPE } = require('../lib/workflows');

const BESIDE = 'no-such-operation-n8n-path-check';
const APP_CHECK_ROUTE = `/s/ship/shipping/${BESIDE}`;
const GATEWAYS = [
	{ name: "AWS API Gateway's 403", status: 403, body: { message: 'Missing Authentication Token' } },
	{ name: 'a 401', status: 401, body: { message: 'Unauthorized' } },
];

const occurrences = (text, part) => text.split(part).length - 1;

module.exports = (getContext) => {
	describe('credential test behind a gateway that refuses every path it does not route (issue 58)', () => {
		const testWith = async (data) => {
			const { n8n, credential, credentialData } = getContext();
			return await n8n.testCredential({
				id: credential.id,
				name: credential.name,
				type: CREDENTIAL_TYPE,
				data: { ...credentialData, ...data },
			});
		};
		const unservedCalls = async () =>
			(await getContext().admin('GET', '/calls')).calls.filter((call) =>
				call.route.endsWith(`/${BESIDE}`),
			);

		/** Uses up what is left of the gateway's fault, so that no later check meets it. */
		async function drain() {
			const context = getContext();
			const { faults } = await context.admin('GET', '/faults');
			for (const fault of faults.filter((armed) => armed.route === 'unserved')) {
				for (let left = fault.remaining; left > 0; left--)
					await fetch(`${context.sandbox.baseUrl}/${BESIDE}`, { method: 'POST' });
			}
		}

		afterEach(drain);

		for (const { name, status, body } of GATEWAYS) {
			test(`${name} at every unrouted path: passes once the token is proven, with one verdict on the token`, async () => {
				const context = getContext();
				const before = (await unservedCalls()).length;
				await context.admin('POST', '/faults', { route: 'unserved', count: 1, status, body });
				const result = await testWith({});
				expect(result.status).toBe('OK');
				expect(occurrences(result.message, 'The access token works')).toBe(1);
				expect(result.message).not.toMatch(
					/access token is not confirmed|refused the access token|lacks the permission/,
				);
				// The App Base URL's check says what it could not see, and what will prove that address.
				const unseen = `The App Base URL could not be checked: ${context.sandbox.appBaseUrl}/ship/shipping/${BESIDE}, `;
				expect(result.message).toContain(unseen);
				expect(result.message.slice(result.message.indexOf(unseen) + unseen.length)).toMatch(
					new RegExp(`^[^.]*\\banswered ${status}\\b`),
				);
				expect(result.message).toContain('The first restore proves the App Base URL');
				// The gateway was asked once, by the App Base URL's check, and answered as told.
				expect((await context.admin('GET', '/faults')).faults).toEqual([]);
				expect(
					(await unservedCalls()).slice(before).map((call) => [call.route, call.status]),
				).toEqual([[APP_CHECK_ROUTE, status]]);
			});

			test(`${name} at every unrouted path: a token the service refuses still fails`, async () => {
				const context = getContext();
				await context.admin('POST', '/faults', { route: 'unserved', count: 2, status, body });
				const result = await testWith({ accessToken: 'not-a-valid-token' });
				expect(result.status).toBe('Error');
				expect(result.message).not.toContain('The access token works');
				expect(result.message).not.toContain('not-a-valid-token');
				// A gateway's page (the profile's errors) does not show the service refusing the token; the
				// service's own 401, unlike the path beside's answer, does.
				const page = context.answers.errorBodies === 'html';
				expect(result.message).toMatch(
					page
						? /^The access token is not confirmed: .* answered 401, not the service refusing it\./
						: /^The service refused the access token \(401\)\./,
				);
			});
		}
	});
};
