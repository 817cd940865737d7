// Which test folders Stryker runs (every folder whose tests load the package from dist/), and the property seed.
module.exports = {
	SUITE_FOLDERS: ['transport', 'trigger', 'action', 'credential', 'ai', 'properties'],
	PROPERTY_SEED: 20261123,
};
