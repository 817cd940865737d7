// The node code's size, counted as CONTRIBUTING.md ("How big the node code may be") says: the lines
// of nodes/**/*.ts in n8n's Prettier layout with comments wrapped (`npm run format:check` holds
// them to it). A number met by cutting ideas: lines are not joined to meet it.
const fs = require('node:fs');
const path = require('node:path');

const NODES = path.resolve(__dirname, '../../nodes');
const CEILING = 4_300;

const lines = (file) => fs.readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;

test(`the node code is at most ${CEILING} lines`, () => {
	const files = fs.readdirSync(NODES, { recursive: true }).filter((name) => name.endsWith('.ts'));
	expect(files.length).toBeGreaterThan(30);
	const total = files.reduce((sum, name) => sum + lines(path.join(NODES, name)), 0);
	expect(total).toBeLessThanOrEqual(CEILING);
});
