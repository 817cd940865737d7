// Every repository path the maintainers' pages and the code's comments name is a file (or folder)
// git holds, and nothing the suites or the code need sits on disk but ignored by git: a clone has
// exactly what the texts promise. (A folder `release/` in .gitignore once also matched test/'s
// release tests, so no clone ever had them.) A copy that is not a checkout (Download ZIP, `git
// archive`) has no git to ask: the checks of this repository skip there.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { gitCheckout, testInCheckout } = require('../helpers/gitCheckout');
const { linksOf } = require('../helpers/markdown');

const root = path.resolve(__dirname, '../..');
const inCheckout = testInCheckout(gitCheckout(root));

// CHANGELOG is history: it may name files that have since gone.
const PAGES = (file) => file.endsWith('.md') && file !== 'CHANGELOG.md';
const CODE_FOLDERS = [
	'nodes',
	'credentials',
	'scripts',
	'e2e',
	'sandbox',
	'bench',
	'test',
	'.ci',
	'.github',
];
const CODE = (file) =>
	CODE_FOLDERS.includes(file.split('/')[0]) &&
	(/\.(?:[cm]?js|ts|sh|ya?ml)$/.test(file) || file === '.ci/run');
// Where a file the suites or the code need must never be ignored; what the run writes is ignored on
// purpose.
const KEPT_FOLDERS = ['test', 'e2e', 'scripts', 'sandbox', 'bench', 'nodes', 'credentials', 'docs'];
const GENERATED = new Set(['node_modules', 'dist', 'reports', 'coverage', '.cache']);

const git = (base, args) =>
	execFileSync('git', args, { cwd: base, encoding: 'utf8', maxBuffer: 64 << 20 });
const gitFiles = (base, args) =>
	git(base, [...args, '-z'])
		.split('\0')
		.filter(Boolean);

/**
 * The comments of a JavaScript or TypeScript file, each with its offset: a scan that steps over
 * strings, template literals and regular expressions, so that a `/*` in a string or a quote in a
 * regular expression opens nothing.
 */
function scriptComments(text) {
	const comments = [];
	let previous = '';
	let word = '';
	const skip = (from, close, stopAtLineEnd) => {
		let i = from + 1;
		let inClass = false;
		while (
			i < text.length &&
			!(text[i] === close && !inClass) &&
			!(stopAtLineEnd && text[i] === '\n')
		) {
			if (text[i] === '\\') i += 1;
			else if (close === '/' && text[i] === '[') inClass = true;
			else if (close === '/' && text[i] === ']') inClass = false;
			i += 1;
		}
		return i + 1;
	};
	for (let i = 0; i < text.length;) {
		const two = text.slice(i, i + 2);
		if (two === '//' || two === '/*') {
			const end = two === '//' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2) + 2;
			const stop = end <= 1 || end === -1 ? text.length : end;
			comments.push({ text: text.slice(i, stop), offset: i });
			i = stop;
		} else if (text[i] === "'" || text[i] === '"' || text[i] === '`') {
			i = skip(i, text[i], text[i] !== '`');
			previous = 'a';
		} else if (
			text[i] === '/' &&
			(!/[\w$)\]}]/.test(previous) ||
				/^(?:return|typeof|case|in|of|new|delete|void|throw|yield|await|else|do)$/.test(word))
		) {
			i = skip(i, '/', true);
			while (/[a-z]/.test(text[i] ?? '')) i += 1;
			previous = 'a';
		} else {
			if (!/\s/.test(text[i])) {
				word = /[\w$]/.test(text[i]) ? (/[\w$]/.test(previous) ? word : '') + text[i] : '';
				previous = text[i];
			}
			i += 1;
		}
	}
	return comments;
}

/** The comments of a code file: a shell script's or a workflow's `#` comments, or a script's. */
function commentsOf(file, text) {
	if (!/\.(?:sh|ya?ml)$/.test(file) && !/^#!.*\b(?:ba)?sh\b/.test(text))
		return scriptComments(text);
	return [...text.matchAll(/(?:^|[ \t])(#(?!!).*)$/gm)].map((match) => ({
		text: match[1],
		offset: match.index + match[0].length - match[1].length,
	}));
}

/**
 * The repository paths a text names: a path from the top of the repository (`scripts/node24.sh`,
 * `./scripts/…`, `test/package/`, `nodes/InventoryOps/*.node.json`) whose first folder is one git
 * holds. Paths under other folders (`dist/`, `reports/`, n8n's `packages/…`) or relative to some
 * folder the reader infers (`helpers/engine.js` in test/README.md) are not repository paths here; a
 * Markdown link is resolved from its page's folder instead.
 */
function pathsNamed(text, topFolders) {
	const tops = [...topFolders].map((folder) => folder.replace(/\./g, '\\.')).join('|');
	const pattern = new RegExp(
		`(?<![\\w.@/~$%-])(?:\\./)?((?:${tops})/[\\w.*<>{},@+-]*(?:/[\\w.*<>{},@+-]*)*)`,
		'g',
	);
	return [...text.matchAll(pattern)].map((match) => ({
		path: match[1].replace(/[.,:;]+$/, ''),
		offset: match.index,
	}));
}

/**
 * Whether git holds `named` as a file, or a folder with files in it; `*`, `**`, `<placeholder>` and
 * `{a,b}` are wildcards.
 */
function holds(named, tracked) {
	const clean = named.replace(/\/+$/, '');
	if (tracked.files.has(clean) || tracked.folders.has(clean)) return true;
	if (!/[*<{]/.test(clean)) return false;
	const source = clean
		.replace(/[.+^$()|\\]/g, '\\$&')
		.replace(/\{([^}]*)\}/g, (_, options) => `(?:${options.split(',').join('|')})`)
		.replace(/<[^>]*>/g, '[^/]+')
		.replace(/\*\*\//g, '\u0000')
		.replace(/\*\*/g, '\u0001')
		.replace(/\*/g, '[^/]*')
		.replace(/\u0000/g, '(?:.*/)?')
		.replace(/\u0001/g, '.*');
	const wildcard = new RegExp(`^${source}(?:/.*)?$`);
	return [...tracked.files].some((file) => wildcard.test(file));
}

function trackedTree(base) {
	const files = new Set(gitFiles(base, ['ls-files']));
	const folders = new Set(
		[...files].flatMap((file) =>
			file
				.split('/')
				.slice(0, -1)
				.map((_, i, parts) => parts.slice(0, i + 1).join('/')),
		),
	);
	return { files, folders };
}

const lineAt = (text, offset) => text.slice(0, offset).split('\n').length;

/**
 * `missing`: one line per path that a page or a comment names and git does not hold
 * (`<file>:<line>: names <path>, …`); `checked`: how many names were looked up.
 */
function missingPaths(base) {
	const tracked = trackedTree(base);
	// Top folders git holds, or that sit on disk unignored, or that the checks name: a folder gone
	// from git entirely still makes its paths repository paths.
	const untracked = gitFiles(base, ['ls-files', '--others', '--exclude-standard', '--directory']);
	const topFolders = new Set([
		...[
			...tracked.folders,
			...untracked.filter((file) => file.includes('/')).map(path.posix.dirname),
		].map((folder) => folder.split('/')[0]),
		...CODE_FOLDERS,
		...KEPT_FOLDERS,
	]);
	// Keyed by file, line and target: a Markdown link also names its target in the text.
	const problems = new Map();
	let checked = 0;
	const report = (file, text, offset, target, shown = target) => {
		const line = lineAt(text, offset);
		problems.set(
			`${file}:${line}:${target}`,
			`${file}:${line}: names ${shown}, which git does not hold`,
		);
	};
	const check = (file, text, offset, named) => {
		checked += 1;
		const fromFolder = path.posix.join(path.posix.dirname(file), named);
		if (!holds(named, tracked) && !holds(fromFolder, tracked))
			report(file, text, offset, named.replace(/\/+$/, ''), named);
	};
	for (const file of [...tracked.files].sort()) {
		const isPage = PAGES(file);
		if ((!isPage && !CODE(file)) || !fs.existsSync(path.join(base, file))) continue;
		const text = fs.readFileSync(path.join(base, file), 'utf8');
		const parts = isPage ? [{ text, offset: 0 }] : commentsOf(file, text);
		for (const part of parts) {
			for (const named of pathsNamed(part.text, topFolders))
				check(file, text, part.offset + named.offset, named.path);
		}
		if (!isPage) continue;
		for (const link of linksOf(text)) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('#')) continue;
			checked += 1;
			const target = path.posix.normalize(
				path.posix.join(path.posix.dirname(file), decodeURIComponent(link.split(/[#?]/)[0])),
			);
			if (!holds(target, tracked))
				report(
					file,
					text,
					text.indexOf(link),
					target,
					link === target ? link : `${link} (${target})`,
				);
		}
	}
	return { checked, missing: [...problems.values()] };
}

/**
 * One line per file on disk under the kept folders that git ignores, with the .gitignore rule that
 * ignores it.
 */
function ignoredFiles(base) {
	return gitFiles(base, ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory'])
		.filter(
			(file) =>
				KEPT_FOLDERS.includes(file.split('/')[0]) &&
				!file.split('/').some((part) => GENERATED.has(part)),
		)
		.map(
			(file) =>
				`${file}: on disk but ignored by git (${git(base, ['check-ignore', '-v', '--no-index', file]).trim().split('\t')[0]})`,
		);
}

describe('every repository path the texts name is in git', () => {
	inCheckout('the pages and comments checked name many paths, and git holds each', () => {
		const { checked, missing } = missingPaths(root);
		expect(checked).toBeGreaterThan(300);
		expect(missing).toEqual([]);
	});

	inCheckout(
		'no file under test/, e2e/, scripts/, sandbox/, bench/, nodes/, credentials/ or docs/ is ignored by git',
		() => {
			expect(ignoredFiles(root)).toEqual([]);
		},
	);

	describe('the check catches what a clone would miss', () => {
		let base;
		const write = (file, text) => {
			fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
			fs.writeFileSync(path.join(base, file), text);
		};

		beforeEach(() => {
			base = fs.mkdtempSync(path.join(os.tmpdir(), 'paths-'));
			git(base, ['init', '-q']);
			write('.gitignore', 'node_modules/\ndist/\nrelease/\n');
			write(
				'scripts/run.sh',
				'#!/usr/bin/env bash\n# Called by test/tool/tool.test.js; see docs/guide.md.\necho "$#" # fine\n',
			);
			write(
				'test/tool/tool.test.js',
				[
					'// Drives ./scripts/run.sh and nodes/*.ts; writes dist/out.js and reports/.',
					"const page = 'docs/absent.md'; // a string, not a comment",
					"const glob = 'docs/*.md', quote = /['\"/]/g, url = `http://x/${glob}//y`; // strings and a regular expression",
					"const other = 'nodes/absent.ts'; /* then docs/guide.md */",
				].join('\n'),
			);
			write('nodes/a.ts', '/* The guide: docs/guide.md#setup. */\nexport const a = 1;\n');
			write(
				'docs/guide.md',
				'# Guide\n\nRun `scripts/run.sh`, see [the test](../test/tool/tool.test.js), [below](#guide) and `test/<folder>/`.\n',
			);
			write('README.md', "See [the guide](docs/guide.md) and n8n's `packages/cli/src/x.ts`.\n");
			git(base, ['add', '.']);
		});
		afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

		test('a tree whose texts name only what git holds passes', () => {
			expect(missingPaths(base).missing).toEqual([]);
			expect(ignoredFiles(base)).toEqual([]);
		});

		test('a named file removed from git is reported with the file and line that name it', () => {
			git(base, ['rm', '-q', '--cached', 'scripts/run.sh', 'docs/guide.md']);
			expect(missingPaths(base).missing).toEqual([
				'README.md:1: names docs/guide.md, which git does not hold',
				'nodes/a.ts:1: names docs/guide.md, which git does not hold',
				'test/tool/tool.test.js:1: names scripts/run.sh, which git does not hold',
				'test/tool/tool.test.js:4: names docs/guide.md, which git does not hold',
			]);
		});

		test('a missing path in a page, in a relative link, in a shell comment and in a block comment is each reported', () => {
			write('docs/guide.md', '# Guide\n\nRun `scripts/gone.sh` or [this](../scripts/other.sh).\n');
			write('scripts/run.sh', '#!/usr/bin/env bash\n# Called by test/tool/gone.test.js.\n');
			write('nodes/a.ts', '/**\n * See docs/missing.md.\n */\nexport const a = 1;\n');
			git(base, ['add', '.']);
			expect(missingPaths(base).missing).toEqual([
				'docs/guide.md:3: names scripts/gone.sh, which git does not hold',
				'docs/guide.md:3: names ../scripts/other.sh (scripts/other.sh), which git does not hold',
				'nodes/a.ts:2: names docs/missing.md, which git does not hold',
				'scripts/run.sh:2: names test/tool/gone.test.js, which git does not hold',
			]);
		});

		test('a file under test/ that a .gitignore pattern also matches is reported with the pattern', () => {
			write('test/release/guard.test.js', "test('x', () => {});\n");
			write('test/node_modules/x.js', '');
			expect(ignoredFiles(base)).toEqual([
				'test/release/: on disk but ignored by git (.gitignore:3:release/)',
			]);
		});
	});
});
