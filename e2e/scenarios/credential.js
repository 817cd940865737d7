// The credential dialog's "Test" button: n8n's own REST endpoint finds the nodes' credential test
// method (testedBy; the credential has no declarative test that n8n would prefer) and runs it
// against the sandbox.
const { CREDENTIAL_TYPE } = require('../lib/workflows');

const BULK = '/api/order/get_single_bulk';
// The service's operations that may change data (transport/endpoints.ts): the credential test sends
// none of them.
const WRITES = [
	'/api/kit/create',
	'/s/ship/shipping/restore_inventory',
	'/api/webhook/add_handler',
	'/api/webhook/remove_handler',
];

module.exports = (getContext) => {
	describe('credential test (POST /rest/credentials/test)', () => {
		const testWith = async (data) => {
			const { n8n, credential, credentialData } = getContext();
			return await n8n.testCredential({
				id: credential.id,
				name: credential.name,
				type: CREDENTIAL_TYPE,
				data: { ...credentialData, ...data },
			});
		};
		const bulkStatuses = async () => (await getContext().calls(BULK)).map((call) => call.status);

		test('passes with a good token and lands one lookup on the sandbox', async () => {
			const before = (await getContext().calls(BULK)).length;
			const result = await testWith({});
			expect(result).toMatchObject({ status: 'OK' });
			const calls = await getContext().calls(BULK);
			expect(calls.length).toBe(before + 1);
			expect(calls[calls.length - 1]).toMatchObject({ status: 200, body: { order: [] } });
		});

		test('a transient 429 on the first call: the test retries and passes', async () => {
			const before = (await bulkStatuses()).length;
			await getContext().admin('POST', '/faults', {
				route: BULK,
				count: 1,
				status: 429,
				retryAfter: 1,
			});
			const result = await testWith({});
			expect(result).toMatchObject({ status: 'OK' });
			expect(result.message).toMatch(
				/ Rate limited \(429\): waited [\d.]+ s of the 5 s allowed\. /,
			);
			expect((await bulkStatuses()).slice(before)).toEqual([429, 200]);
		});

		test('fails clearly with a token the service does not accept', async () => {
			const result = await testWith({ accessToken: 'not-a-valid-token' });
			expect(result.status).toBe('Error');
			// A gateway's page (the profile's errors) does not show the service refusing the token.
			const page = getContext().answers.errorBodies === 'html';
			expect(result.message).toMatch(
				page
					? /^The access token is not confirmed: .* answered 401, not the service refusing it\. The answer was a web page/
					: /refused the access token \(401\).*Check the Access Token in the credential/,
			);
			expect(result.message).not.toContain('not-a-valid-token');
			const statuses = await bulkStatuses();
			expect(statuses[statuses.length - 1]).toBe(401);
		});

		test('fails clearly with an expired token', async () => {
			const expired = await getContext().sandbox.issueToken({
				scopes: ['platformGeneric', 'platformApi'],
				expiresInSeconds: -60,
			});
			const result = await testWith({ accessToken: expired });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^The access token expired at /);
		});

		test('fails clearly with a token without the permission', async () => {
			const token = await getContext().sandbox.issueToken({
				scopes: ['platformUser'],
				expiresInSeconds: 600,
			});
			const result = await testWith({ accessToken: token });
			expect(result.status).toBe('Error');
			const page = getContext().answers.errorBodies === 'html';
			expect(result.message).toMatch(
				page
					? /^The access token is not confirmed: .* answered 403, not the service refusing it\. The answer was a web page/
					: /permission \(scope\).*\(403\)/,
			);
		});

		test('sends nothing to an operation that may change data, with a working credential or with any slip', async () => {
			const { sandbox } = getContext();
			const writes = async () =>
				(await Promise.all(WRITES.map((route) => getContext().calls(route)))).map(
					(calls) => calls.length,
				);
			const before = await writes();
			const results = [];
			for (const data of [
				{},
				{ accessToken: 'not-a-valid-token' },
				{ appBaseUrl: sandbox.baseUrl },
				{ baseUrl: sandbox.appBaseUrl },
				{ baseUrl: sandbox.appBaseUrl, appBaseUrl: sandbox.baseUrl },
			]) {
				results.push((await testWith(data)).status);
			}
			expect(results[0]).toBe('OK');
			expect(await writes()).toEqual(before);
			// The working credential's message says what only a first real restore proves.
			expect((await testWith({})).message).toMatch(
				/ Only a first real restore proves that restores work there: the test sends none, since a restore changes data\./,
			);
		});

		test('fails clearly with a wrong Base URL, where the answers prove it', async () => {
			const { sandbox, answers } = getContext();
			const result = await testWith({ baseUrl: sandbox.appBaseUrl });
			// Only a 404 that names the path (as the one of a path nothing serves does) proves it; a web
			// page or a generic Not Found could be a service's answer to a missing order too, so the test
			// passes and says it could not confirm.
			const proven = answers.errorBodies !== 'html' && answers.unknownPaths !== 'service-error';
			expect(result.status).toBe(proven ? 'Error' : 'OK');
			expect(result.message).toMatch(
				proven
					? /^Wrong Base URL: .*answered 404/
					: /^Could not confirm the Base URL or the access token: .*answered 404/,
			);
		});
	});
};
