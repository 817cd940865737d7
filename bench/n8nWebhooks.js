'use strict';

// `npm run bench:n8n`: deliveries to the Inventory Ops Trigger and to n8n's own Webhook node
// (typeVersion 2.1, and typeVersion 1), published side by side in one real n8n per host line, the
// same deliveries to each, 1 and 8 in flight. Reports deliveries/s and the n8n process's CPU per
// delivery, and the ratios; with BENCH_N8N_PROFILE it also takes a CPU profile of each target in
// n8n (inspector) and attributes its time. See bench/README.md.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const WebSocket = require('ws');

const { startSandbox } = require('../sandbox');
const { RUNTIME_DIR, REPO_ROOT } = require('../e2e/lib/hosts');
const { N8nInstance } = require('../e2e/lib/n8n');
const { freePort, sleep, waitFor } = require('../e2e/lib/wait');
const { node, chain, triggerWorkflow, CREDENTIAL_TYPE } = require('../e2e/lib/workflows');
const { readProfile, largest } = require('./profile');
const { median } = require('./report');

const LINES = (process.env.BENCH_N8N_LINES ?? '1.x,2.x').split(',').filter(Boolean);
// n8n 2.x gives the webhook phase of every trigger but its own Webhook node (2+) an expression
// isolate; its legacy expression engine has none, which shows what that costs. BENCH_N8N_LEGACY=0
// leaves the legacy engine out (half the run on 2.x, for repetitions of the installed engine).
const WITH_LEGACY = process.env.BENCH_N8N_LEGACY !== '0';
// BENCH_N8N_LAZY=1 adds 2.x with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: n8n then makes an isolate
// only for a phase that evaluates an expression, which a delivery to a trigger at version 1.1 does
// not.
const WITH_LAZY = process.env.BENCH_N8N_LAZY === '1';
const variantsOf = (line) => {
	if (!line.startsWith('2')) return [{ line, label: line, env: {}, profile: false }];
	const variant = (setting, value) => ({
		line,
		label: `${line}, ${setting}=${value}`,
		env: { [setting]: value },
		profile: false,
	});
	return [
		{ line, label: line, env: {}, profile: true },
		...(WITH_LEGACY ? [variant('N8N_EXPRESSION_ENGINE', 'legacy')] : []),
		...(WITH_LAZY ? [variant('N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE', 'true')] : []),
	];
};
const VARIANTS = LINES.flatMap(variantsOf);
const DELIVERIES = Number(process.env.BENCH_N8N_DELIVERIES ?? 100);
const IN_FLIGHT = (process.env.BENCH_N8N_IN_FLIGHT ?? '1,8').split(',').map(Number);
const REPS = Number(process.env.BENCH_N8N_REPS ?? 2);
// A folder: profile each target on 2.x at 8 in flight
const PROFILE_DIR = process.env.BENCH_N8N_PROFILE;
const OUT = path.resolve(REPO_ROOT, process.env.BENCH_OUT ?? 'bench');
const EVENT_TYPE = 'order.shipped';
const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
const TYPE_HEADER = 'x-inventory-ops-event-type';
// The trigger (its one version, 1.1): the target every ratio compares.
const OURS = 'Inventory Ops Trigger 1.1';
const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ
const log = (text) => process.stdout.write(`[bench:n8n] ${text}\n`);

/**
 * CPU time (user + system) so far, in ms, of what a /proc folder describes: a process
 * (`/proc/<pid>`, all its threads, ended ones too) or one thread (`/proc/<pid>/task/<tid>`).
 */
function cpuMsOf(procFolder) {
	const stat = fs.readFileSync(`${procFolder}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU time so far of each live thread of the process, in ms, summed per thread name
 * (/proc/<pid>/task/*).
 */
function cpuMsByThread(pid) {
	const byName = {};
	for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
		try {
			const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
			const label = tid === String(pid) ? 'main' : name.replace(/\d+$/, '#');
			byName[label] = (byName[label] ?? 0) + cpuMsOf(`/proc/${pid}/task/${tid}`);
		} catch {
			// The thread ended between the listing and the read: its time counts as "ended threads".
		}
	}
	return byName;
}

/**
 * Resolves once the process has been (nearly) idle for a second: the executions the deliveries
 * started are done.
 */
async function settled(pid) {
	let quiet = 0;
	let last = cpuMsOf(`/proc/${pid}`);
	while (quiet < 4) {
		await sleep(250);
		const now = cpuMsOf(`/proc/${pid}`);
		quiet = now - last <= 10 ? quiet + 1 : 0;
		last = now;
	}
	return Date.now() - 1000;
}

/**
 * n8n's Webhook node and a No Op. With `credential`, the workflow also holds an Inventory Ops node
 * with that credential, connected to nothing, so never run: n8n 2.x checks, before every execution,
 * that the workflow may use each credential its nodes hold (`credentialsPermissionChecker.check` in
 * the host's workflow-runner.js, a database query), which a workflow of the Webhook node alone
 * skips and one with the trigger cannot.
 */
function webhookNodeWorkflow(name, typeVersion, webhookPath, credential) {
	const parameters = { httpMethod: 'POST', path: webhookPath, options: {} };
	const webhook = node('Webhook', 'n8n-nodes-base.webhook', parameters, {
		typeVersion,
		webhookId: crypto.randomUUID(),
	});
	const received = node('Received', 'n8n-nodes-base.noOp', {}, { position: [260, 0] });
	const workflow = chain(name, [webhook, received]);
	if (credential) {
		const parameters = {
			resource: 'order',
			operation: 'lookUp',
			lookUpBy: 'list',
			references: '[]',
		};
		workflow.nodes.push(
			node('Holds the credential', 'n8n-nodes-inventory-ops.inventoryOps', parameters, {
				position: [0, 200],
				credential,
			}),
		);
	}
	return workflow;
}

function eventBody(index) {
	return {
		id: `bench-${crypto.randomUUID()}`,
		type: EVENT_TYPE,
		created_at: new Date().toISOString(),
		data: {
			store_id: '1001',
			order_number: String(1000 + index),
			status: 'shipped',
			tracking_number: `1Z${index}`,
		},
	};
}

/** Sends `count` deliveries, `inFlight` at a time; every answer must be 200. */
async function send(target, count, inFlight) {
	let next = 0;
	const failures = [];
	const worker = async () => {
		while (next < count) {
			const index = next++;
			try {
				const response = await fetch(target.url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...target.headers },
					body: JSON.stringify(eventBody(index)),
				});
				await response.arrayBuffer();
				if (response.status !== 200) failures.push(response.status);
			} catch (error) {
				// Not sent again: the delivery may have reached n8n. Counted and reported instead.
				failures.push(error.cause?.code ?? error.message);
			}
		}
	};
	await Promise.all(Array.from({ length: inFlight }, worker));
	if (failures.length > count / 10)
		throw new Error(
			`${target.label}: ${failures.length} of ${count} deliveries failed (${[...new Set(failures)]})`,
		);
	return failures.length;
}

/** One measured setting: deliveries/s until n8n is idle again, and n8n's CPU per delivery. */
async function measure(n8n, target, inFlight) {
	const pid = n8n.child.pid;
	await settled(pid);
	const cpuBefore = cpuMsOf(`/proc/${pid}`);
	const threadsBefore = cpuMsByThread(pid);
	const started = Date.now();
	const failed = await send(target, DELIVERIES, inFlight);
	const answeredMs = Date.now() - started;
	const doneAt = await settled(pid);
	const wallMs = Math.max(doneAt - started, answeredMs);
	const cpu = cpuMsOf(`/proc/${pid}`) - cpuBefore;
	const threadsAfter = cpuMsByThread(pid);
	const threads = {};
	for (const [name, ms] of Object.entries(threadsAfter))
		threads[name] = (ms - (threadsBefore[name] ?? 0)) / DELIVERIES;
	threads['ended threads'] =
		cpu / DELIVERIES - Object.values(threads).reduce((sum, ms) => sum + ms, 0);
	return {
		target: target.label,
		inFlight,
		deliveries: DELIVERIES,
		failed,
		wallMs,
		answeredMs,
		perSecond: (DELIVERIES * 1000) / wallMs,
		cpuMsPerDelivery: cpu / DELIVERIES,
		threads,
	};
}

/**
 * The Chrome DevTools protocol over the inspector's WebSocket: just enough for Profiler.start/stop.
 */
async function inspector(port) {
	const [{ webSocketDebuggerUrl }] = await (
		await fetch(`http://127.0.0.1:${port}/json/list`)
	).json();
	const socket = new WebSocket(webSocketDebuggerUrl);
	await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
	let id = 0;
	const pending = new Map();
	socket.on('message', (data) => {
		const message = JSON.parse(data);
		if (pending.has(message.id)) {
			pending.get(message.id)(message);
			pending.delete(message.id);
		}
	});
	const call = (method, params = {}) =>
		new Promise((resolve) => {
			id += 1;
			pending.set(id, resolve);
			socket.send(JSON.stringify({ id, method, params }));
		});
	await call('Profiler.enable');
	await call('Profiler.setSamplingInterval', { interval: 200 });
	return { call, close: () => socket.close() };
}

/**
 * Waits until the workflow has `count` executions, finished (the sampling profiler keeps n8n from
 * looking idle).
 */
async function executionsDone(n8n, workflowId, count) {
	await waitFor(
		async () => {
			const executions = await n8n.executions(workflowId, { includeData: false });
			return executions.length >= count && executions.every((execution) => execution.stoppedAt)
				? true
				: undefined;
		},
		{ what: `${count} executions of ${workflowId}`, timeoutMs: 300_000, intervalMs: 500 },
	);
}

async function profileTarget(n8n, devtools, target, variant) {
	await settled(n8n.child.pid);
	const before = (await n8n.executions(target.workflowId, { includeData: false })).length;
	await devtools.call('Profiler.start');
	await send(target, DELIVERIES, 8);
	await executionsDone(n8n, target.workflowId, before + DELIVERIES);
	const { result } = await devtools.call('Profiler.stop');
	fs.mkdirSync(PROFILE_DIR, { recursive: true });
	const file = path.join(PROFILE_DIR, `n8n-${variant.line}-${target.key}.cpuprofile`);
	fs.writeFileSync(file, JSON.stringify(result.profile));
	const read = readProfile(result.profile);
	const inside = (pattern) => read.insideUs((frame) => pattern.test(frame.url)) / 1000 / DELIVERIES;
	return {
		target: target.label,
		file: path.relative(REPO_ROOT, file),
		msPerDelivery: read.totalUs / 1000 / DELIVERIES,
		insideNodeMsPerDelivery: inside(target.nodeCode),
		byPackage: largest(read.byPackage, 8).map(([key, us]) => [key, us / 1000 / DELIVERIES]),
		byFunction: largest(read.byFunction, 15).map(([key, us]) => [key, us / 1000 / DELIVERIES]),
	};
}

async function benchVariant(variant, sandbox) {
	const { line } = variant;
	const userFolder = path.join(RUNTIME_DIR, 'bench', `n8n-${line}`);
	fs.rmSync(userFolder, { recursive: true, force: true });
	const inspectPort = PROFILE_DIR && variant.profile ? await freePort() : undefined;
	const n8n = await N8nInstance.prepare({
		line,
		userFolder,
		log,
		nodeArgs: inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [],
		extraEnv: variant.env,
	});
	try {
		await n8n.start();
		await n8n.setUpOwner();
		const credential = await n8n.createCredential({
			name: 'Sandbox',
			type: CREDENTIAL_TYPE,
			data: {
				accessToken: sandbox.demoToken,
				baseUrl: sandbox.baseUrl,
				appBaseUrl: sandbox.appBaseUrl,
			},
		});
		const ours = await n8n.createWorkflow(
			triggerWorkflow('bench: Inventory Ops Trigger', credential, [EVENT_TYPE]),
		);
		const v2 = await n8n.createWorkflow(
			webhookNodeWorkflow('bench: Webhook 2.1', 2.1, 'bench-webhook-v2'),
		);
		const v1 = await n8n.createWorkflow(
			webhookNodeWorkflow('bench: Webhook 1', 1, 'bench-webhook-v1'),
		);
		const v1WithCredential = await n8n.createWorkflow(
			webhookNodeWorkflow(
				'bench: Webhook 1 + credential',
				1,
				'bench-webhook-v1-credential',
				credential,
			),
		);
		const workflows = [ours, v2, v1, v1WithCredential];
		for (const workflow of workflows) await n8n.publish(workflow.id);
		/**
		 * The handler the trigger of `workflow` added: the sandbox's record, whose URL holds the
		 * trigger's webhookId.
		 */
		const handlerOf = (workflow) =>
			waitFor(
				async () => {
					const { handlers } = await (await fetch(`${sandbox.adminUrl}/handlers`)).json();
					const { webhookId } = workflow.nodes[0];
					return handlers.find(
						(entry) =>
							entry.type === EVENT_TYPE &&
							entry.handler.url === `${n8n.baseUrl}/webhook/${webhookId}/webhook`,
					);
				},
				{ what: `the handler of ${workflow.name}`, timeoutMs: 60_000 },
			);
		const deliveryTo = async (workflow) => {
			const { handler } = await handlerOf(workflow);
			return {
				url: handler.url,
				headers: { [SECRET_HEADER]: handler.headers[SECRET_HEADER], [TYPE_HEADER]: EVENT_TYPE },
			};
		};
		const webhookUrl = (webhookPath) => `${n8n.baseUrl}/webhook/${webhookPath}`;
		const targets = [
			{
				key: 'ours',
				workflowId: ours.id,
				label: OURS,
				...(await deliveryTo(ours)),
				nodeCode: /n8n-nodes-inventory-ops\//,
			},
			{
				key: 'webhook-2.1',
				workflowId: v2.id,
				label: 'Webhook node 2.1',
				url: webhookUrl('bench-webhook-v2'),
				headers: {},
				nodeCode: /nodes\/Webhook\//,
			},
			{
				key: 'webhook-1',
				workflowId: v1.id,
				label: 'Webhook node 1',
				url: webhookUrl('bench-webhook-v1'),
				headers: {},
				nodeCode: /nodes\/Webhook\//,
			},
			{
				key: 'webhook-1-credential',
				workflowId: v1WithCredential.id,
				label: 'Webhook node 1 + credential',
				url: webhookUrl('bench-webhook-v1-credential'),
				headers: {},
				nodeCode: /nodes\/Webhook\//,
			},
		];
		// Reachable and warm: a few deliveries each before measuring.
		const answers = async (url) =>
			(await fetch(url, { method: 'POST' }).catch(() => undefined))?.status === 200;
		await waitFor(
			async () => ((await answers(webhookUrl('bench-webhook-v1'))) ? true : undefined),
			{ what: 'published webhooks', timeoutMs: 60_000 },
		);
		for (const target of targets) await send(target, 20, 2);

		const results = [];
		for (const inFlight of IN_FLIGHT) {
			for (let rep = 0; rep < REPS; rep += 1) {
				// Rotate the order so that no target always goes first after a pause.
				const order = targets.map((_, index) => targets[(index + rep) % targets.length]);
				for (const target of order) {
					const result = { ...(await measure(n8n, target, inFlight)), rep };
					log(
						`${variant.label} ${target.label}, ${inFlight} in flight: ${result.perSecond.toFixed(1)}/s, ${result.cpuMsPerDelivery.toFixed(1)} ms CPU per delivery, ${result.threads.main.toFixed(1)} on the main thread`,
					);
					results.push(result);
				}
			}
		}
		const executions = {};
		for (const [index, target] of targets.entries()) {
			executions[target.key] = (
				await n8n.executions(workflows[index].id, { includeData: false })
			).length;
		}
		const profiles = [];
		if (inspectPort) {
			const devtools = await inspector(inspectPort);
			try {
				for (const target of targets)
					profiles.push(await profileTarget(n8n, devtools, target, variant));
			} finally {
				devtools.close();
			}
		}
		for (const workflow of workflows) await n8n.unpublish(workflow.id);
		return {
			line,
			label: `${n8n.host.version}${variant.label.slice(line.length)}`,
			version: n8n.host.version,
			results,
			executions,
			profiles,
		};
	} finally {
		await n8n.stop();
	}
}

function summarise(run) {
	const rows = [];
	for (const inFlight of IN_FLIGHT) {
		const of = (label) =>
			run.results.filter((result) => result.target === label && result.inFlight === inFlight);
		const row = (label) => ({
			label,
			perSecond: median(of(label).map((result) => result.perSecond)),
			cpuMs: median(of(label).map((result) => result.cpuMsPerDelivery)),
			mainMs: median(of(label).map((result) => result.threads.main)),
		});
		const ours = row(OURS);
		// Paired: the targets of one repetition run back to back, so their ratio leaves out what drifts
		// between repetitions (one target's own repetitions differed by up to half); the median of
		// those ratios.
		const paired = (label, ratio) =>
			median(
				of(OURS).map((mine) =>
					ratio(
						mine,
						of(label).find((theirs) => theirs.rep === mine.rep),
					),
				),
			);
		for (const other of [
			row('Webhook node 2.1'),
			row('Webhook node 1'),
			row('Webhook node 1 + credential'),
		]) {
			rows.push({
				inFlight,
				ours,
				other,
				throughputRatio: ours.perSecond / other.perSecond,
				cpuRatio: other.cpuMs / ours.cpuMs,
				pairedThroughputRatio: paired(
					other.label,
					(mine, theirs) => mine.perSecond / theirs.perSecond,
				),
				pairedCpuRatio: paired(
					other.label,
					(mine, theirs) => theirs.cpuMsPerDelivery / mine.cpuMsPerDelivery,
				),
				pairedMainRatio: paired(
					other.label,
					(mine, theirs) => theirs.threads.main / mine.threads.main,
				),
			});
		}
	}
	return rows;
}

function markdown(runs, startedAt, totalMs) {
	const lines = [
		`Measured by \`npm run bench:n8n\` on ${startedAt.slice(0, 10)} (whole run ${Math.round(totalMs / 1000)} s): ${DELIVERIES} deliveries per setting, each setting ${REPS} times (medians), the targets interleaved in one n8n per line, a No Op after each (Webhook node 1 + credential: the same workflow holding an Inventory Ops node with the credential, connected to nothing, so that n8n's check of the credentials before every execution runs as for the trigger). Throughput counts until n8n is idle again (the executions done), CPU is the n8n process's own (user + system), all its threads; main thread is the part on the thread that runs n8n's JavaScript and the node's, without the expression isolates' threads and those that ended. Ratios are ours / theirs, so 1.0 means as cheap as n8n's node: of the medians, and paired (the median of the ratios within each repetition, whose targets ran back to back).`,
		'',
		'| n8n | in flight | Inventory Ops Trigger /s | CPU ms | compared with | its /s | its CPU ms | throughput ratio | CPU ratio (theirs / ours) | paired: throughput / CPU ratio | main thread ms: ours / its, paired ratio (its / ours) |',
		'|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
	];
	for (const run of runs) {
		for (const row of summarise(run)) {
			lines.push(
				`| ${run.label} | ${row.inFlight} | ${row.ours.perSecond.toFixed(1)} | ${row.ours.cpuMs.toFixed(1)} | ${row.other.label} | ${row.other.perSecond.toFixed(1)} | ${row.other.cpuMs.toFixed(1)} | ${row.throughputRatio.toFixed(2)} | ${row.cpuRatio.toFixed(2)} | ${row.pairedThroughputRatio.toFixed(2)} / ${row.pairedCpuRatio.toFixed(2)} | ${row.ours.mainMs.toFixed(1)} / ${row.other.mainMs.toFixed(1)}, ${row.pairedMainRatio.toFixed(2)} |`,
			);
		}
	}
	for (const run of runs) {
		lines.push(
			'',
			`Executions saved on ${run.label}: ${Object.entries(run.executions)
				.map(([key, count]) => `${key} ${count}`)
				.join(', ')}.`,
		);
		for (const profile of run.profiles) {
			lines.push(
				'',
				`Profile on ${run.version}, ${profile.target}, 8 in flight (\`${profile.file}\`): ${profile.msPerDelivery.toFixed(1)} ms sampled per delivery, of which ${profile.insideNodeMsPerDelivery.toFixed(2)} ms inside the node's own code (and what it calls). By package (ms per delivery): ${profile.byPackage.map(([key, ms]) => `${key} ${ms.toFixed(2)}`).join(', ')}.`,
			);
		}
	}
	return `${lines.join('\n')}\n`;
}

async function main() {
	const startedAt = new Date().toISOString();
	const started = Date.now();
	const sandbox = await startSandbox({ port: 0, orders: 100, seed: 1, rateLimit: false });
	const runs = [];
	try {
		for (const variant of VARIANTS) {
			runs.push(await benchVariant(variant, sandbox));
			fs.mkdirSync(OUT, { recursive: true });
			fs.writeFileSync(
				path.join(OUT, 'n8n-webhooks.json'),
				`${JSON.stringify({ startedAt, partial: true, deliveries: DELIVERIES, reps: REPS, runs }, null, 2)}\n`,
			);
		}
	} finally {
		await sandbox.close();
	}
	const totalMs = Date.now() - started;
	fs.mkdirSync(OUT, { recursive: true });
	fs.writeFileSync(
		path.join(OUT, 'n8n-webhooks.json'),
		`${JSON.stringify({ startedAt, totalMs, deliveries: DELIVERIES, reps: REPS, runs }, null, 2)}\n`,
	);
	const text = markdown(runs, startedAt, totalMs);
	fs.writeFileSync(path.join(OUT, 'n8n-webhooks.md'), text);
	process.stdout.write(`\n${text}`);
	for (const run of runs) {
		for (const profile of run.profiles) {
			process.stdout.write(
				`\n${run.version} ${profile.target}: top functions (self ms per delivery)\n${profile.byFunction.map(([key, ms]) => `  ${ms.toFixed(3)}  ${key}`).join('\n')}\n`,
			);
		}
	}
}

main().catch((error) => {
	process.stderr.write(
		`${error.stack}\n${error.cause ? `cause: ${error.cause.stack ?? error.cause}\n` : ''}`,
	);
	process.exit(1);
});
