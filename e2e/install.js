// `npm run e2e:install [-- <host line>...]`: installs the n8n hosts (all lines by default) into
// .cache/hosts/, side by side, and the harness's tools (e2e/tools: Verdaccio for the installer
// suite) into .cache/tools/. CI can run this in the background while the unit tests run; `npm run
// e2e` installs what is missing itself.
const { hostLines, installHost } = require('./lib/hosts');
const { installTools } = require('./lib/tools');

async function main() {
	const lines = process.argv.slice(2).length > 0 ? process.argv.slice(2) : hostLines();
	const started = Date.now();
	const log = (line) => process.stdout.write(`e2e:install: ${line}\n`);
	const [hosts] = await Promise.all([
		Promise.all(lines.map((line) => installHost(line, { log }))),
		installTools({ log }),
	]);
	for (const host of hosts) {
		log(
			`${host.line}: n8n ${host.version} ${host.installedNow ? `installed in ${(host.installMs / 1000).toFixed(0)} s` : 'already installed'}`,
		);
	}
	log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error) => {
	process.stderr.write(`e2e:install: ${error.stack ?? error}\n`);
	process.exit(1);
});
