// Every link and image in the repository's Markdown pages lands somewhere: a relative link on a
// file that exists (and its #anchor on a heading of that file), and a link to the package's own
// GitHub repository (package.json `homepage`/`repository`) on a file of this clone. No network:
// other sites are not checked.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const pkg = require(path.join(root, 'package.json'));
const { linksOf } = require('../helpers/markdown');

/**
 * The pages checked: the top-level ones, and every Markdown file in the folders that describe
 * themselves.
 */
function markdownFiles(base) {
	const top = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter((file) =>
		fs.existsSync(path.join(base, file)),
	);
	const walk = (folder) =>
		fs.existsSync(path.join(base, folder))
			? fs.readdirSync(path.join(base, folder), { withFileTypes: true }).flatMap((entry) => {
					const relative = path.join(folder, entry.name);
					if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(relative);
					return entry.name.endsWith('.md') ? [relative] : [];
				})
			: [];
	return [...top, ...['docs', 'e2e', 'bench', 'test', 'sandbox', 'mutation'].flatMap(walk)];
}

/**
 * GitHub's anchors for a page: headings (formatting dropped, lower case, punctuation out, spaces as
 * hyphens, repeats numbered) and HTML ids.
 */
function anchorsOf(text) {
	const anchors = new Set();
	const seen = new Map();
	const code = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;
	for (const match of text.replace(code, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
		const plain = match[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
		const slug = plain
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	for (const match of text.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
	return anchors;
}

/** The repository's address without `.git`, `git+` or an anchor, from package.json. */
const repositoryUrl = (manifest) =>
	String(manifest.repository?.url ?? manifest.repository ?? manifest.homepage)
		.replace(/^git\+/, '')
		.replace(/\.git$/, '')
		.replace(/#.*$/, '');

/**
 * A link to this repository on GitHub as a path in the clone: the repository itself is its README;
 * `blob`, `tree` and `raw` addresses (and raw.githubusercontent.com) name a file after the branch
 * or commit.
 */
function repositoryPath(link, repository) {
	const [address, anchor] = link.split('#');
	const { pathname } = new URL(repository);
	const url = new URL(address);
	if (url.hostname === 'raw.githubusercontent.com') {
		if (!url.pathname.startsWith(`${pathname}/`)) return undefined;
		return {
			file: url.pathname
				.slice(pathname.length + 1)
				.split('/')
				.slice(1)
				.join('/'),
			anchor,
		};
	}
	if (url.hostname !== new URL(repository).hostname) return undefined;
	const rest = url.pathname.replace(/\/$/, '');
	if (rest === pathname) return { file: 'README.md', anchor };
	const match = rest.slice(pathname.length).match(/^\/(?:blob|tree|raw)\/[^/]+\/(.+)$/);
	if (!rest.startsWith(`${pathname}/`)) return undefined;
	return { file: match ? match[1] : '', anchor, unreadable: !match };
}

/** What is wrong with the links of the pages under `base`: one entry per broken link. */
function brokenLinks(base, repository) {
	const problems = [];
	const anchorCache = new Map();
	const anchorsIn = (file) => {
		if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(fs.readFileSync(file, 'utf8')));
		return anchorCache.get(file);
	};
	for (const page of markdownFiles(base)) {
		const pagePath = path.join(base, page);
		for (const link of linksOf(fs.readFileSync(pagePath, 'utf8'))) {
			let target;
			let anchor;
			if (/^https?:\/\//i.test(link)) {
				// The issue tracker package.json names (`bugs.url`): a page of GitHub's, not a file of the
				// repository.
				if (link.split('#')[0] === pkg.bugs?.url) continue;
				const mapped = repositoryPath(link, repository);
				if (mapped === undefined) continue;
				if (mapped.unreadable) {
					problems.push({ page, link, problem: 'a link into the repository that names no file' });
					continue;
				}
				target = path.join(base, decodeURIComponent(mapped.file));
				anchor = mapped.anchor;
			} else if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
				continue;
			} else {
				const [file, hash] = link.split('#');
				target =
					file === ''
						? pagePath
						: path.resolve(path.dirname(pagePath), decodeURIComponent(file.split('?')[0]));
				anchor = hash;
			}
			if (!fs.existsSync(target)) {
				problems.push({ page, link, problem: `no file ${path.relative(base, target)}` });
				continue;
			}
			if (anchor && target.endsWith('.md') && !anchorsIn(target).has(decodeURIComponent(anchor))) {
				problems.push({
					page,
					link,
					problem: `no heading #${anchor} in ${path.relative(base, target)}`,
				});
			}
		}
	}
	return problems;
}

describe('links in the Markdown pages', () => {
	const repository = repositoryUrl(pkg);

	test('the pages checked include every README and the top-level pages', () => {
		const pages = markdownFiles(root);
		for (const page of [
			'README.md',
			'CONTRIBUTING.md',
			'CHANGELOG.md',
			'docs/README.md',
			'e2e/README.md',
			'bench/README.md',
			'test/README.md',
			'sandbox/README.md',
		]) {
			expect(pages).toContain(page);
		}
	});

	test('every relative link, image and link into the repository lands on a file and heading that exist', () => {
		const links = markdownFiles(root).flatMap((page) =>
			linksOf(fs.readFileSync(path.join(root, page), 'utf8')),
		);
		expect(links.length).toBeGreaterThan(30);
		expect(brokenLinks(root, repository)).toEqual([]);
	});

	test("README's pictures are the editor's screenshots in docs/", () => {
		const images = linksOf(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).filter((link) =>
			link.endsWith('.png'),
		);
		expect(images.length).toBeGreaterThan(0);
		for (const image of images) expect(image).toMatch(/^docs\/editor[\w-]*\.png$/);
	});

	describe('the check catches what breaks a link', () => {
		let base;
		const write = (file, text) => {
			fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
			fs.writeFileSync(path.join(base, file), text);
		};
		const repo = 'https://github.com/owner/name';

		beforeEach(() => {
			base = fs.mkdtempSync(path.join(os.tmpdir(), 'links-'));
			write(
				'README.md',
				[
					'# Title',
					'## Set up the credential',
					'See [the page](docs/page.md#what-it-does), ![picture](docs/a.png), [here](#set-up-the-credential),',
					`[on GitHub](${repo}/blob/main/docs/page.md#what-it-does) and [the README](${repo}#set-up-the-credential).`,
					'`[not a link](nowhere.md)` and [elsewhere](https://example.com/missing.md).',
					'```',
					'[in a code block](nowhere.md)',
					'```',
				].join('\n'),
			);
			write('docs/page.md', '# Page\n\n## What it does\n');
			write('docs/a.png', 'png');
		});
		afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

		test('a tree whose links all land passes', () => {
			expect(brokenLinks(base, repo)).toEqual([]);
		});

		test('a moved file breaks the relative link and the repository link to it', () => {
			fs.renameSync(path.join(base, 'docs/page.md'), path.join(base, 'docs/moved.md'));
			expect(brokenLinks(base, repo).map(({ link }) => link)).toEqual([
				'docs/page.md#what-it-does',
				`${repo}/blob/main/docs/page.md#what-it-does`,
			]);
		});

		test('a moved picture, a renamed heading and an anchor of the page itself are each caught', () => {
			fs.rmSync(path.join(base, 'docs/a.png'));
			write('docs/page.md', '# Page\n\n## What it is\n');
			write(
				'README.md',
				`${fs.readFileSync(path.join(base, 'README.md'), 'utf8')}\n[gone](#no-such-heading)\n`,
			);
			expect(brokenLinks(base, repo)).toEqual([
				{
					page: 'README.md',
					link: 'docs/page.md#what-it-does',
					problem: 'no heading #what-it-does in docs/page.md',
				},
				{ page: 'README.md', link: 'docs/a.png', problem: 'no file docs/a.png' },
				{
					page: 'README.md',
					link: `${repo}/blob/main/docs/page.md#what-it-does`,
					problem: 'no heading #what-it-does in docs/page.md',
				},
				{
					page: 'README.md',
					link: '#no-such-heading',
					problem: 'no heading #no-such-heading in README.md',
				},
			]);
		});

		test('headings repeated get numbered anchors, as GitHub gives them', () => {
			expect([
				...anchorsOf(
					'## Notes\n## Notes\n## Order → Get Many in full\n## `npm run bench:n8n` (x)\n',
				),
			]).toEqual(['notes', 'notes-1', 'order--get-many-in-full', 'npm-run-benchn8n-x']);
		});
	});
});
