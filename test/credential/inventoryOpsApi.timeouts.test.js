// The credential test against an address that takes the connection and never answers: after its 15
// s limit it says which address gave no answer. Both addresses are tried at the same time, so this
// file takes about 15 s; run as n8n runs it (test/helpers/engine.js credentialTester).
const net = require('node:net');

const { credentialTester } = require('../helpers/engine');
const { startSandbox } = require('../helpers/sandbox');

const LIMIT_MS = 15_000;

let sandbox;
let silent;
let sockets;
let testCredential;
beforeAll(async () => {
	sandbox = await startSandbox({ orders: 20, config: { errorBodies: 'spec' } });
	testCredential = credentialTester();
	// Reads every request and never answers, as a host behind a firewall that holds the connection
	// would.
	sockets = new Set();
	silent = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('data', () => {});
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => silent.close(resolve));
	await sandbox.close();
});

const silentOrigin = () => `http://127.0.0.1:${silent.address().port}`;

// One test for both addresses, waiting at the same time: the limit is the credential test's own, 15
// s.
test(
	'a Base URL or an App Base URL that never answers: no answer within 15 s, naming the address to check',
	async () => {
		const [base, app] = await Promise.all([
			testCredential({ ...sandbox.credentials(), baseUrl: `${silentOrigin()}/api` }),
			testCredential({ ...sandbox.credentials(), appBaseUrl: `${silentOrigin()}/s` }),
		]);
		const noAnswer = (url, field) =>
			`The service did not answer ${url} in time. No answer came \\([^)]+\\): check the ${field}, and that n8n can reach the service.`;
		expect(base).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				new RegExp(`^${noAnswer(`${silentOrigin()}/api/order/get_single_bulk`, 'Base URL')}$`),
			),
		});
		// What the Base URL check proved follows.
		const appNoAnswer = noAnswer(
			`${silentOrigin()}/s/ship/shipping/no-such-operation-n8n-path-check`,
			'App Base URL',
		);
		expect(app).toEqual({
			status: 'Error',
			message: expect.stringMatching(new RegExp(`^${appNoAnswer} The access token works: `)),
		});
	},
	LIMIT_MS + 10_000,
);
