// `npm run e2e:install [-- <host line>...]`: installs the n8n hosts (all lines by default) into .cache/hosts/, side
// by side. CI can run this in the background while the unit tests run; `npm run e2e` installs what is missing itself.
const { hostLines, installHost } = require('./lib/hosts');

async function main() {
	const lines = process.argv.slice(2).length > 0 ? process.argv.slice(2) : hostLines();
	const started = Date.now();
	const log = (line) => process.stdout.write(`e2e:install: ${line}\n`);
	const hosts = await Promise.all(lines.map((line) => installHost(line, { log })));
	for (const host of hosts) {
		log(`${host.line}: n8n ${host.version} ${host.installedNow ? `installed in ${(host.installMs / 1000).toFixed(0)} s` : 'already installed'}`);
	}
	log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error) => {
	process.stderr.write(`e2e:install: ${error.stack ?? error}\n`);
	process.exit(1);
});
