// With a registry mirror that lacks the non-Linux optional binaries of some packages (e.g.
// unrs-resolver's
// @unrs/resolver-binding-*), `npm install` writes a lock whose optionalDependencies name packages
// it could not record, and `npm ci` then refuses the lock as out of sync. This drops such dangling
// optional entries; run it after any `npm install` that changes package-lock.json (npm run
// lockfile:prune).
const fs = require('node:fs');
const path = require('node:path');

const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'package-lock.json'));
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const recorded = Object.keys(lock.packages);
let pruned = 0;
for (const entry of Object.values(lock.packages)) {
	for (const name of Object.keys(entry.optionalDependencies ?? {})) {
		if (!recorded.some((where) => where.endsWith(`node_modules/${name}`))) {
			delete entry.optionalDependencies[name];
			pruned++;
		}
	}
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
	`prune-lockfile: ${pruned} dangling optional dependencies removed from ${path.basename(file)}`,
);
