// What the tests of Get Many's Auto (test/actions/order/lookUp/: lookUp.callsInFlight.test.js,
// lookUp.batchGrowth.test.js) share: the route and node parameters they run, the sandbox switches
// that make calls countable, and how they read the node's notices.

const ROUTE = '/api/order/get_single_bulk';
const BY_LIST = {
	resource: 'order',
	operation: 'lookUp',
	lookUpBy: 'list',
	references: '={{ $json.refs }}',
};
// latencyPerKbMs 0: under the gateway profile (npm run jest:profiles) every answer pays a delay per
// KB, which makes a call's time grow with its size (a service whose calls of 50 orders at "0 ms"
// are as slow as the 100 ms ones).
const COUNTED = {
	bulkMaxLength: 500,
	bulkOrderFields: 'all',
	retryAfter: 'seconds',
	latencyPerKbMs: 0,
};

/** The notices (hints) of the run's last node. */
const hintsOf = (result) =>
	result.run.data.resultData.runData[Object.keys(result.run.data.resultData.runData).at(-1)][0]
		.hints ?? [];

/** The first `count` orders of the sandbox, as references. */
async function knownReferences(ctx, count) {
	return (await ctx.sandbox.orders({ limit: count })).map(({ store_id, order_number }) => ({
		store_id,
		order_number,
	}));
}

module.exports = { ROUTE, BY_LIST, COUNTED, hintsOf, knownReferences };
