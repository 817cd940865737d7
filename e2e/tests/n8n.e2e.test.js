// The whole end-to-end suite for one n8n host line (E2E_HOST_LINE, set by e2e/run.js): one sandbox
// and one real n8n for all scenarios, which run in the order below (the trigger lifecycle restarts
// and kills n8n, so it is last).
const { describeHost, isOnlyWhenNamed, newestHostLine } = require('../lib/hosts');
const { startContext } = require('../lib/context');

const line = process.env.E2E_HOST_LINE || newestHostLine();
let context;
const getContext = () => context;

beforeAll(async () => {
	context = await startContext(line, { log: (text) => process.stdout.write(`${text}\n`) });
}, 900_000); // a host that is not installed yet is installed first

afterAll(async () => {
	if (context) await context.close();
});

describe(`n8n host line ${line}`, () => {
	require('../scenarios/credential')(getContext);
	require('../scenarios/credentialGateway')(getContext);
	require('../scenarios/actions')(getContext);
	require('../scenarios/editor')(getContext);
	// Not on the oldest supported line (run only when named): n8n 1.99.1's n8n-workflow has no
	// nodeNameToToolName to name the tool with, and its editor's "execute step" request for a tool
	// differs; the AI Agent tool is claimed from
	// 1.123.81 on (README, Compatibility).
	if (!isOnlyWhenNamed(line)) require('../scenarios/aiTool')(getContext);
	require('../scenarios/examples')(getContext);
	// n8n 1.x has no SSRF protection settings (n8n 1.123.81's @n8n/config has none).
	if (parseInt(describeHost(line).version, 10) >= 2) require('../scenarios/ssrf')(getContext);
	require('../scenarios/triggerRefusals')(getContext);
	require('../scenarios/removalProof')(getContext);
	require('../scenarios/triggerUnderLoad')(getContext);
	require('../scenarios/trigger')(getContext);
});
