// Runs n8n's community package scanner rules on this package without a registry. The registry leg
// of `@n8n/scan-community-package` (provenance, download) cannot run before a release, so we feed
// its own analyzePackage() the two things it lints after that leg, with the same file patterns: the
// node and credential sources (it lints the commit the provenance names), and the published
// tarball's compiled files and package.json.
//
// node scripts/scan-package.mjs both legs; the tarball is packed from the current dist/ (build
// first)
// node scripts/scan-package.mjs <file.tgz> the tarball leg alone, on that tarball (release.yml: the
// one it publishes)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const given = process.argv[2] && path.resolve(process.argv[2]);
const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-ops-pack-'));
try {
	let tarball = given;
	if (!tarball) {
		const [{ filename }] = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', unpacked], {
				cwd: root,
				encoding: 'utf8',
			}),
		);
		tarball = path.join(unpacked, filename);
	}
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);

	const results = {
		...(given ? {} : { source: await analyzePackage(root, SOURCE_FILE_PATTERNS) }),
		tarball: await analyzePackage(unpacked, ['**/*.js', 'package.json']),
	};
	let failed = false;
	for (const [leg, result] of Object.entries(results)) {
		// analyzePackage passes a folder where its patterns match nothing; a scan that read nothing
		// proves nothing.
		const empty = result.message === 'No files found to analyze';
		const passed = result.passed && !empty;
		console.log(
			`scan (${leg}): ${passed ? 'passed' : `FAILED — ${empty ? "no file matched the scanner's patterns" : result.message}`}`,
		);
		if (result.details) console.log(result.details);
		failed ||= !passed;
	}
	process.exitCode = failed ? 1 : 0;
} finally {
	fs.rmSync(unpacked, { recursive: true, force: true });
}
