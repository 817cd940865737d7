// A loopback port nothing listens on: an address that refuses the connection (ECONNREFUSED).
//
//   const { closedPort } = require('../helpers/closedPort');
//   const baseUrl = `http://127.0.0.1:${await closedPort()}/api`;
const net = require('node:net');

async function closedPort() {
	const server = net.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}

module.exports = { closedPort };
