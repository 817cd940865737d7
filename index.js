// n8n loads the nodes and credentials listed in package.json's "n8n" section; this file only keeps
// `main` valid.
module.exports = {};
