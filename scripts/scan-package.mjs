// Runs n8n's community package scanner rules on this package without a registry: the registry leg of
// `@n8n/scan-community-package` (provenance, download) cannot run here, so we feed its own analyzePackage() the
// two things it would lint — the node/credential sources, and the packed tarball's compiled files.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-ops-pack-'));
try {
	const [{ filename }] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', unpacked], {
			cwd: root,
			encoding: 'utf8',
		}),
	);
	execFileSync('tar', ['-xzf', path.join(unpacked, filename), '-C', unpacked, '--strip-components=1']);

	const results = {
		source: await analyzePackage(root, SOURCE_FILE_PATTERNS),
		tarball: await analyzePackage(unpacked, ['**/*.js', 'package.json']),
	};
	let failed = false;
	for (const [leg, result] of Object.entries(results)) {
		console.log(`scan (${leg}): ${result.passed ? 'passed' : `FAILED — ${result.message}`}`);
		if (result.details) console.log(result.details);
		failed ||= !result.passed;
	}
	process.exitCode = failed ? 1 : 0;
} finally {
	fs.rmSync(unpacked, { recursive: true, force: true });
}
