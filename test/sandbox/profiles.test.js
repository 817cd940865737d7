// The profile matrix (sandbox/profiles.js): together the profiles give every switch of
// sandbox/switches.js every value, each profile is accepted by a running sandbox as it is, and
// sandbox/README.md lists every switch and shows the matrix as it is.
const fs = require('node:fs');
const path = require('node:path');

const sandboxModule = require('../../sandbox');
const {
	PROFILES,
	DEFAULT_PROFILE,
	profileSwitches,
	profileValues,
} = require('../../sandbox/profiles');
const {
	DEFAULT_SWITCHES,
	FREE_SWITCH_VALUES,
	OPEN_POINT_SWITCHES,
} = require('../../sandbox/switches');

const README = fs.readFileSync(path.resolve(__dirname, '../../sandbox/README.md'), 'utf8');
const EVERY_VALUE = { ...OPEN_POINT_SWITCHES, ...FREE_SWITCH_VALUES };

test('every value of every switch is taken by at least one profile', () => {
	const missing = [];
	for (const [name, values] of Object.entries(EVERY_VALUE)) {
		for (const value of values) {
			if (!Object.keys(PROFILES).some((profile) => profileValues(profile)[name] === value)) {
				missing.push(`${name}=${JSON.stringify(value)}`);
			}
		}
	}
	expect(missing).toEqual([]);
});

test('the default profile is the default answers, and profiles name only known switches', () => {
	expect(profileValues(DEFAULT_PROFILE)).toEqual(DEFAULT_SWITCHES);
	for (const name of Object.keys(PROFILES)) {
		for (const [switchName, value] of Object.entries(profileSwitches(name))) {
			expect([name, switchName, EVERY_VALUE[switchName]?.includes(value)]).toEqual([
				name,
				switchName,
				true,
			]);
		}
	}
	expect(() => profileSwitches('no-such-profile')).toThrow(
		/Unknown sandbox profile "no-such-profile"; known: documented/,
	);
});

test('a sandbox started with each profile answers with exactly its values', async () => {
	for (const name of Object.keys(PROFILES)) {
		const sandbox = await sandboxModule.startSandbox({
			port: 0,
			orders: 4,
			rateLimit: false,
			config: profileSwitches(name),
		});
		try {
			const config = await (await fetch(`${sandbox.adminUrl}/config`)).json();
			for (const [switchName, value] of Object.entries(profileValues(name))) {
				expect([name, switchName, config[switchName]]).toEqual([name, switchName, value]);
			}
		} finally {
			await sandbox.close();
		}
	}
});

test("sandbox/README.md lists every switch, and its profile table is the profiles' values", () => {
	for (const name of Object.keys(EVERY_VALUE)) expect(README).toContain(`| \`${name}\` |`);
	const header = `| switch | ${Object.keys(PROFILES)
		.map((name) => `\`${name}\``)
		.join(' | ')} |`;
	const table = README.slice(README.indexOf(header)).split('\n').slice(2);
	expect(README).toContain(header);
	for (const name of Object.keys(EVERY_VALUE)) {
		const cells = Object.keys(PROFILES).map((profile) => `\`${profileValues(profile)[name]}\``);
		expect(table).toContain(`| \`${name}\` | ${cells.join(' | ')} |`);
	}
});
