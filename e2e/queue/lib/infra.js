// PostgreSQL and Redis for n8n's queue mode, from Debian's packages, run from their binaries by the
// harness itself: no system service is started or needed. Each run gets a fresh PostgreSQL cluster
// in a git-ignored folder (<RUNTIME_DIR>/queue/run-<pid>/) and a Redis without persistence, both on
// free loopback ports, and stops them again.
//
// PostgreSQL refuses to run as root, so initdb and postgres run as the `postgres` user the Debian
// package creates (via runuser). Durability is switched off (fsync, synchronous_commit,
// full_page_writes): the cluster is thrown away after the run, and n8n's many small writes would
// otherwise wait on the disk.
const { execFile, execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const { REPO_ROOT, RUNTIME_DIR, run } = require('../../lib/hosts');
const { exitedWithin, freePort, waitFor } = require('../../lib/wait');

const REDIS_SERVER = '/usr/bin/redis-server';
const QUEUE_CACHE = path.join(RUNTIME_DIR, 'queue');

/**
 * The newest PostgreSQL server installed by Debian's packages, e.g. /usr/lib/postgresql/15/bin; or
 * undefined.
 */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const versions = fs
		.readdirSync(root)
		.filter((version) => fs.existsSync(path.join(root, version, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length > 0 ? path.join(root, versions[0], 'bin') : undefined;
}

function packagesPresent() {
	return postgresBinDir() !== undefined && fs.existsSync(REDIS_SERVER);
}

/**
 * PostgreSQL and Redis when they are missing (CI machines start without them), from the one script
 * that installs what the test run needs (scripts/system-packages.sh: as root only, waiting for
 * apt's lock, no service started); `npm run test:all` has run it already when the queue slice is
 * chosen, so this matters for `npm run e2e:queue` alone.
 */
async function ensureDebianPackages({ log = () => {} } = {}) {
	if (packagesPresent()) return { installedNow: false, installMs: 0 };
	const started = Date.now();
	log('PostgreSQL or Redis missing: scripts/system-packages.sh queue');
	try {
		await run('bash', [path.join(REPO_ROOT, 'scripts', 'system-packages.sh'), 'queue'], {});
	} catch (error) {
		// The script's own lines name the packages and the command; the rest of the error is the
		// command line.
		throw new Error(
			`PostgreSQL and Redis are needed:\n${error.message.split('\n').slice(1).join('\n').trim()}`,
		);
	}
	if (!packagesPresent())
		throw new Error(
			'scripts/system-packages.sh finished but postgres or redis-server is still missing',
		);
	const installMs = Date.now() - started;
	log(`installed postgresql and redis-server in ${(installMs / 1000).toFixed(1)} s`);
	return { installedNow: true, installMs };
}

/**
 * Every server this process started and has not stopped yet: an interrupted run must not leave one
 * behind.
 */
const servers = new Set();
process.on('exit', () => {
	for (const child of servers) {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
});
// Ctrl-C or a CI time-out: exit normally, so that the handler above (and the n8n harness's) runs.
for (const signal of ['SIGINT', 'SIGTERM']) {
	if (process.listenerCount(signal) === 0) process.once(signal, () => process.exit(130));
}

/** A server started in its own process group, so that stopping it also stops whatever it forked. */
function startDetached(command, args, { logFile, env = process.env }) {
	const out = fs.openSync(logFile, 'a');
	const child = spawn(command, args, { detached: true, stdio: ['ignore', out, out], env });
	fs.closeSync(out);
	servers.add(child);
	child.exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			servers.delete(child);
			resolve({ code, signal });
		}),
	);
	return child;
}

async function stopDetached(child, signal, { timeoutMs = 15_000 } = {}) {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		return; // already gone
	}
	if (!(await exitedWithin(child, timeoutMs))) {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			// already gone
		}
		await child.exited;
	}
}

function canConnect(port) {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** Runs a command as the postgres user (PostgreSQL will not run as root). */
function asPostgres(command, args) {
	return process.getuid() === 0
		? ['runuser', ['-u', 'postgres', '--', command, ...args]]
		: [command, args];
}

/**
 * A throw-away PostgreSQL cluster with a database and role `n8n` (password `n8n`; local connections
 * are trusted). Resolves to { host, port, database, user, password, rows(select), stop() }.
 */
async function startPostgres({ runDir, log = () => {} }) {
	const bin = postgresBinDir();
	const dataDir = path.join(runDir, 'postgres');
	const logFile = path.join(runDir, 'postgres.log');
	fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	if (process.getuid() === 0) execFileSync('chown', ['-R', 'postgres:postgres', runDir]);
	const started = Date.now();
	const [initCommand, initArgs] = asPostgres(path.join(bin, 'initdb'), [
		'-D',
		dataDir,
		'-U',
		'postgres',
		'--auth=trust',
		'-E',
		'UTF8',
		'--locale=C',
		'--no-sync',
	]);
	await run(initCommand, initArgs, {});
	const port = await freePort();
	const [command, args] = asPostgres(path.join(bin, 'postgres'), [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-k',
		dataDir,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=60',
		'-c',
		'shared_buffers=64MB',
	]);
	const child = startDetached(command, args, { logFile });
	const psql = path.join(bin, 'psql');
	const sql = (statement) =>
		run(
			psql,
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				'postgres',
				'-v',
				'ON_ERROR_STOP=1',
				'-qc',
				statement,
			],
			{},
		);
	try {
		await waitFor(
			async () =>
				child.exitCode === null &&
				(await canConnect(port)) &&
				(await sql('SELECT 1').then(() => true)),
			{
				timeoutMs: 30_000,
				intervalMs: 100,
				what: `PostgreSQL on port ${port} (log: ${logFile})`,
			},
		);
		await sql("CREATE ROLE n8n LOGIN PASSWORD 'n8n'");
		await sql('CREATE DATABASE n8n OWNER n8n');
	} catch (error) {
		await stopDetached(child, 'SIGINT');
		throw error;
	}
	const startMs = Date.now() - started;
	log(
		`PostgreSQL ${path.basename(path.dirname(bin))} ready on 127.0.0.1:${port} in ${(startMs / 1000).toFixed(1)} s`,
	);
	return {
		host: '127.0.0.1',
		port,
		database: 'n8n',
		user: 'n8n',
		password: 'n8n',
		startMs,
		logFile,
		/** The rows of a SELECT as objects (json_agg of it, through psql as the n8n role). */
		rows: (select) => selectRows(psql, port, select),
		// SIGINT is PostgreSQL's "fast shutdown".
		stop: () => stopDetached(child, 'SIGINT'),
	};
}

function selectRows(psql, port, select) {
	const statement = `SELECT coalesce(json_agg(result), '[]'::json) FROM (${select}) AS result`;
	const args = [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		'n8n',
		'-d',
		'n8n',
		'-v',
		'ON_ERROR_STOP=1',
		'-X',
		'-qAtc',
		statement,
	];
	return new Promise((resolve, reject) => {
		execFile(
			psql,
			args,
			{ maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PGPASSWORD: 'n8n' } },
			(error, stdout, stderr) => {
				if (error) reject(new Error(`psql: ${select}\n${stderr || error.message}`));
				else resolve(JSON.parse(stdout));
			},
		);
	});
}

/** A Redis without persistence on a free loopback port. Resolves to { host, port, stop() }. */
async function startRedis({ runDir, log = () => {} }) {
	const port = await freePort();
	const logFile = path.join(runDir, 'redis.log');
	const started = Date.now();
	const child = startDetached(
		REDIS_SERVER,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--dir',
			runDir,
		],
		{ logFile },
	);
	try {
		await waitFor(async () => child.exitCode === null && (await canConnect(port)), {
			timeoutMs: 15_000,
			intervalMs: 50,
			what: `Redis on port ${port} (log: ${logFile})`,
		});
	} catch (error) {
		await stopDetached(child, 'SIGKILL');
		throw error;
	}
	const startMs = Date.now() - started;
	log(`Redis ready on 127.0.0.1:${port} in ${(startMs / 1000).toFixed(1)} s`);
	return { host: '127.0.0.1', port, startMs, logFile, stop: () => stopDetached(child, 'SIGTERM') };
}

/** A fresh run folder under <RUNTIME_DIR>/queue/; older runs of this machine are removed first. */
function freshRunDir() {
	fs.mkdirSync(QUEUE_CACHE, { recursive: true });
	for (const entry of fs.readdirSync(QUEUE_CACHE)) {
		const pid = Number(entry.replace(/^run-/, ''));
		let alive = false;
		try {
			process.kill(pid, 0);
			alive = true;
		} catch {
			alive = false;
		}
		if (!alive) fs.rmSync(path.join(QUEUE_CACHE, entry), { recursive: true, force: true });
	}
	const runDir = path.join(QUEUE_CACHE, `run-${process.pid}`);
	fs.rmSync(runDir, { recursive: true, force: true });
	fs.mkdirSync(runDir, { recursive: true });
	return runDir;
}

module.exports = { ensureDebianPackages, startPostgres, startRedis, freshRunDir, postgresBinDir };
