// One public GitHub repository behind every address the package gives: npm's provenance and n8n's
// scanner take `repository.url` as the repository that ran the release
// (.github/workflows/release.yml refuses any other), and n8n shows the homepage, the issue tracker
// and each documentation link to users. Read from the sources, so that a link changed in one place
// and not in the others fails here before anything is built or published.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const pkg = require(path.join(root, 'package.json'));

const GITHUB_REPOSITORY = /^git\+https:\/\/github\.com\/([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+?)\.git$/;
const repository = pkg.repository?.url?.match(GITHUB_REPOSITORY)?.[1];
const base = `https://github.com/${repository}`;

function filesUnder(dir, pattern) {
	return fs
		.readdirSync(path.join(root, dir), { recursive: true })
		.filter((file) => pattern.test(file))
		.map((file) => path.join(dir, file));
}

test('repository.url is a public GitHub repository in the form npm provenance compares', () => {
	expect(pkg.repository).toEqual({ type: 'git', url: expect.stringMatching(GITHUB_REPOSITORY) });
});

test('homepage, bugs and the author link are that repository', () => {
	expect({ homepage: pkg.homepage, bugs: pkg.bugs, authorUrl: pkg.author.url }).toEqual({
		homepage: `${base}#readme`,
		bugs: { url: `${base}/issues` },
		authorUrl: base,
	});
});

test("the credential's and both nodes' documentationUrl, and every codex resource link, are that repository's README", () => {
	const sources = [
		'credentials/InventoryOpsApi.credentials.ts',
		...pkg.n8n.nodes.map((file) => file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
	];
	const documentationUrls = sources.map((file) => {
		const found = fs
			.readFileSync(path.join(root, file), 'utf8')
			.match(/documentationUrl\s*[=:]\s*'([^']*)'/);
		return { file, url: found?.[1] };
	});
	const codexFiles = filesUnder('nodes/InventoryOps', /\.node\.json$/);
	expect(codexFiles).toHaveLength(pkg.n8n.nodes.length);
	const codexLinks = codexFiles.flatMap((file) =>
		Object.entries(
			JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')).resources ?? {},
		).flatMap(([kind, links]) => links.map((link) => ({ file: `${file} ${kind}`, url: link.url }))),
	);
	const links = [...documentationUrls, ...codexLinks];
	// The credential and two nodes, and each codex file's primary and credential documentation.
	expect(links.length).toBeGreaterThanOrEqual(sources.length + 2 * codexFiles.length);
	expect(links.filter(({ url }) => !url?.startsWith(`${base}#`))).toEqual([]);
});

test('no file of the nodes or the credential names another GitHub repository', () => {
	const others = filesUnder('nodes', /\.(ts|json)$/)
		.concat(filesUnder('credentials', /\.ts$/))
		.flatMap((file) =>
			[
				...fs
					.readFileSync(path.join(root, file), 'utf8')
					.matchAll(/github\.com\/([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+?)(?:\.git)?(?=[/#'"\s)]|$)/g),
			]
				.filter((match) => match[1] !== repository)
				.map((match) => `${file}: ${match[0]}`),
		);
	expect(others).toEqual([]);
});
