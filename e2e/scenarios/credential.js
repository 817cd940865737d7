// The credential dialog's "Test" button: n8n's own REST endpoint runs the credential's `test` request.
const { CREDENTIAL_TYPE } = require('../lib/workflows');

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

		test('passes with a good token and lands one lookup on the sandbox', async () => {
			const { credentialData } = getContext();
			const before = (await getContext().calls('/api/order/get_single_bulk')).length;
			const result = await testWith({});
			expect(result).toMatchObject({ status: 'OK' });
			const calls = await getContext().calls('/api/order/get_single_bulk');
			expect(calls.length).toBe(before + 1);
			expect(calls[calls.length - 1]).toMatchObject({ status: 200, body: { order: [] } });
			expect(credentialData.accessToken).toBeTruthy();
		});

		test('fails clearly with a token the service does not accept', async () => {
			const result = await testWith({ accessToken: 'not-a-valid-token' });
			expect(result.status).toBe('Error');
			// n8n words a 401 of a credential test itself: "Authorization failed - please check your credentials".
			expect(result.message).toMatch(/authori[sz]ation failed|401|unauthori[sz]ed/i);
			const calls = await getContext().calls('/api/order/get_single_bulk');
			expect(calls[calls.length - 1].status).toBe(401);
		});

		test('fails clearly with an expired token', async () => {
			const expired = await getContext().sandbox.issueToken({
				scopes: ['platformGeneric', 'platformApi'],
				expiresInSeconds: -60,
			});
			const result = await testWith({ accessToken: expired });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/authori[sz]ation failed|401|unauthori[sz]ed|expired/i);
		});

		test('fails clearly with a wrong Base URL', async () => {
			const { sandbox } = getContext();
			const result = await testWith({ baseUrl: sandbox.appBaseUrl });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/404|not found|could not be found/i);
		});
	});
};
