// Copies the static assets (icons, codex files) next to the compiled nodes and credentials: tsc
// emits only .js.
const { src, dest, task } = require('gulp');

task('build:icons', () =>
	src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist')),
);
