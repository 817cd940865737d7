// n8n's SSRF protection against a Base URL on a private address (n8n 2.x; n8n 1.123.81 has no such
// settings). Read in the 2.41.1 host: @n8n/config's SsrfProtectionConfig
// (N8N_SSRF_PROTECTION_ENABLED, off by default; N8N_SSRF_BLOCKED_IP_RANGES, by default loopback,
// the private ranges, link-local...; N8N_SSRF_ALLOWED_IP_RANGES; N8N_SSRF_ALLOWED_HOSTNAMES) and
// @n8n/backend-network's OutboundHttp, which every request helper of a node goes through:
// `helpers.httpRequestWithAuthentication` (the nodes) and `helpers.request` (the credential test).
// A URL whose host is an IP address is checked against the IP ranges only
// (SsrfProtectionService.lookupAndValidate): N8N_SSRF_ALLOWED_HOSTNAMES lets a host *name* through,
// never an IP written in the URL. So a second n8n with the protection on and
// N8N_SSRF_ALLOWED_HOSTNAMES=localhost,127.0.0.1 refuses the sandbox at 127.0.0.1 before any
// request leaves n8n and reaches it at localhost; restarted with
// N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32 it reaches it at 127.0.0.1 as well.
const fs = require('node:fs');
const path = require('node:path');

const { RUNTIME_DIR } = require('../lib/hosts');
const { N8nInstance } = require('../lib/n8n');
const {
	CREDENTIAL_TYPE,
	MANUAL_TRIGGER,
	actionWorkflow,
	errorOf,
	outputOf,
} = require('../lib/workflows');

const BULK = '/api/order/get_single_bulk';
// n8n's own words for a refused address (SsrfBlockedIpError in @n8n/backend-network).
const BLOCKED = 'The request was blocked because it resolves to a restricted IP address';
const PROTECTION = {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost,127.0.0.1',
};

module.exports = (getContext) => {
	describe("n8n's SSRF protection and a Base URL on a private address", () => {
		let n8n;
		let references;
		const bulkCalls = async () => (await getContext().calls(BULK)).length;
		/**
		 * The suite's credential data, its addresses on the given host name (the sandbox listens on
		 * 127.0.0.1).
		 */
		const dataOn = (hostname) => {
			const { credentialData } = getContext();
			const on = (url) => url.replace('//127.0.0.1:', `//${hostname}:`);
			return {
				...credentialData,
				baseUrl: on(credentialData.baseUrl),
				appBaseUrl: on(credentialData.appBaseUrl),
			};
		};
		const credentialOn = async (instance, hostname) =>
			await instance.createCredential({
				name: `Sandbox on ${hostname}`,
				type: CREDENTIAL_TYPE,
				data: dataOn(hostname),
			});
		/**
		 * The credential dialog's Test button on a new credential whose addresses are on `hostname`.
		 */
		const testOn = async (instance, hostname) => {
			const { id, name } = await credentialOn(instance, hostname);
			return await instance.testCredential({
				id,
				name,
				type: CREDENTIAL_TYPE,
				data: dataOn(hostname),
			});
		};
		/**
		 * One order lookup in a workflow on `instance`, with a credential whose addresses are on
		 * `hostname`.
		 */
		const lookUpOn = async (instance, hostname) => {
			const credential = await credentialOn(instance, hostname);
			const workflow = await instance.createWorkflow(
				actionWorkflow(`e2e ssrf ${hostname}`, credential, [
					{
						name: 'Look Up Orders',
						parameters: {
							resource: 'order',
							operation: 'lookUp',
							lookUpBy: 'list',
							references,
							simplify: false,
						},
					},
				]),
			);
			return await instance.runManually(workflow.id, MANUAL_TRIGGER);
		};

		beforeAll(async () => {
			const { orders } = await getContext().admin('GET', '/orders?limit=1');
			references = JSON.stringify([
				{ store_id: orders[0].store_id, order_number: orders[0].order_number },
			]);
			const userFolder = path.join(RUNTIME_DIR, 'e2e', `n8n-${getContext().line}-ssrf`);
			fs.rmSync(userFolder, { recursive: true, force: true });
			n8n = await N8nInstance.prepare({
				line: getContext().line,
				userFolder,
				extraEnv: PROTECTION,
			});
			await n8n.start();
			await n8n.setUpOwner();
		}, 300_000);

		afterAll(async () => {
			if (n8n) await n8n.stop();
		});

		test('off by default: the suite’s n8n, without these settings, passes the credential test on 127.0.0.1', async () => {
			expect(await testOn(getContext().n8n, '127.0.0.1')).toMatchObject({ status: 'OK' });
		});

		test('on: the credential test on 127.0.0.1 fails with n8n’s refusal, and nothing reaches the sandbox', async () => {
			const before = await bulkCalls();
			const result = await testOn(n8n, '127.0.0.1');
			expect(result.status).toBe('Error');
			expect(result.message).toContain(BLOCKED);
			// n8n refused, not the address: never "Wrong Base URL" or "could not be reached".
			expect(result.message).toContain('nothing was sent');
			expect(result.message).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
			expect(result.message).not.toMatch(/Wrong Base URL|could not be reached/);
			process.stdout.write(
				`ssrf: credential test on 127.0.0.1 with the protection on: ${result.message}\n`,
			);
			expect(await bulkCalls()).toBe(before);
		});

		test('on: a node on 127.0.0.1 fails the execution with n8n’s refusal, and nothing reaches the sandbox', async () => {
			const before = await bulkCalls();
			const execution = await lookUpOn(n8n, '127.0.0.1');
			expect(execution.status).toBe('error');
			const error = errorOf(execution);
			const { message, description, errorResponse } = error;
			process.stdout.write(
				`ssrf: node on 127.0.0.1 with the protection on: ${JSON.stringify({ message, description, errorResponse })}\n`,
			);
			expect(error.message).toBe(`${BLOCKED}: /order/get_single_bulk was not sent.`);
			expect(error.description).toContain('N8N_SSRF_ALLOWED_HOSTNAMES');
			expect(await bulkCalls()).toBe(before);
		});

		test('N8N_SSRF_ALLOWED_HOSTNAMES=localhost lets the same sandbox through at localhost: test and node pass', async () => {
			expect(await testOn(n8n, 'localhost')).toMatchObject({ status: 'OK' });
			const before = await bulkCalls();
			const execution = await lookUpOn(n8n, 'localhost');
			expect(errorOf(execution)).toBeUndefined();
			expect(outputOf(execution, 'Look Up Orders')).toHaveLength(1);
			expect(await bulkCalls()).toBe(before + 1);
		});

		test('N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32 lets it through at 127.0.0.1: test and node pass', async () => {
			n8n.extraEnv = { ...PROTECTION, N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' };
			await n8n.restart();
			expect(await testOn(n8n, '127.0.0.1')).toMatchObject({ status: 'OK' });
			const before = await bulkCalls();
			const execution = await lookUpOn(n8n, '127.0.0.1');
			expect(errorOf(execution)).toBeUndefined();
			expect(outputOf(execution, 'Look Up Orders')).toHaveLength(1);
			expect(await bulkCalls()).toBe(before + 1);
		});
	});
};
