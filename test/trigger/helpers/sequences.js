// Collects the handler count the sandbox shows after each sequence, for the closing note.
const fs = require('node:fs');
const path = require('node:path');

const counts = {};

function record(sequence, handlerCount) {
	counts[sequence] = handlerCount;
}

function write(fileName) {
	const dir = path.resolve(__dirname, '../../../reports');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, fileName), `${JSON.stringify(counts, null, 2)}\n`);
}

module.exports = { record, write };
