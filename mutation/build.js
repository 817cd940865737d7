// Stryker's build step, run in its sandbox (a copy of the repository outside the checkout,
// stryker.config.mjs): Stryker links the checkout's node_modules there only after the build, so
// this links it first, then compiles the mutated TypeScript into the sandbox's dist/ as `npm run
// build` does (the icons are not needed by the tests).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const checkout = process.env.MUTATION_CHECKOUT;
if (!checkout) throw new Error('MUTATION_CHECKOUT is not set (stryker.config.mjs sets it)');
if (!fs.existsSync('node_modules'))
	fs.symlinkSync(path.join(checkout, 'node_modules'), 'node_modules', 'junction');
execFileSync(
	process.execPath,
	[require.resolve('typescript/bin/tsc', { paths: [process.cwd()] }), '-p', 'tsconfig.build.json'],
	{
		stdio: 'inherit',
	},
);
