'use strict';

// The throughput chart, drawn by vega-lite + vega (both ESM only, hence import()).

function chartSpec(summary) {
	const name = {
		ours: 'ours',
		oursList: 'ours, one list item',
		perItem: 'per item',
		limit: 'limit',
	};
	const main = [summary.ours, summary.oursList, summary.perItem, summary.limit]
		.filter(Boolean)
		.map((entry) => ({
			scenario: name[entry.kind],
			lookupsPerSecond: Math.round(entry.lookupsPerSecond),
		}));
	const grid = summary.grid.map((cell) => ({
		scenario: cell.kind === 'limit' ? 'limit' : 'ours',
		batch: `batch ${cell.batchSize}`,
		callsInFlight: cell.callsInFlight,
		lookupsPerSecond: Math.round(cell.lookupsPerSecond),
	}));
	return {
		$schema: 'https://vega.github.io/schema/vega-lite/v6.json',
		config: { font: 'Helvetica, Arial, sans-serif', view: { stroke: null } },
		vconcat: [
			{
				title: `Order lookups per second, ${summary.ours.lookups.toLocaleString('en-US')} orders (median)`,
				width: 520,
				height: 120,
				data: { values: main },
				encoding: {
					y: { field: 'scenario', type: 'nominal', sort: null, title: null },
					x: { field: 'lookupsPerSecond', type: 'quantitative', title: 'lookups / s' },
				},
				layer: [
					{ mark: { type: 'bar', color: '#4c78a8' } },
					{
						mark: { type: 'text', align: 'left', dx: 4 },
						encoding: { text: { field: 'lookupsPerSecond', type: 'quantitative', format: ',' } },
					},
				],
			},
			{
				title: `Batch size × calls in flight: ours (solid${summary.gridKind === 'oursList' ? ', one list item' : ''}) and the limit (dashed)`,
				width: 520,
				height: 220,
				data: { values: grid },
				mark: { type: 'line', point: true },
				encoding: {
					x: {
						field: 'callsInFlight',
						type: 'ordinal',
						title: 'calls in flight',
						axis: { labelAngle: 0 },
					},
					y: { field: 'lookupsPerSecond', type: 'quantitative', title: 'lookups / s' },
					color: { field: 'batch', type: 'nominal', title: null, sort: null },
					strokeDash: { field: 'scenario', type: 'nominal', title: null, sort: ['ours', 'limit'] },
					detail: { field: 'scenario' },
				},
			},
		],
	};
}

/**
 * Time over the ideal by latency per call: ours (Auto), the same node fixed at 4, the raw
 * keep-alive client at its best.
 */
function latencyChartSpec(network) {
	const cells = network.latency.filter((cell) => !cell.missing);
	const values = cells.flatMap((cell) => [
		{
			latencyMs: cell.latencyMs,
			scenario: 'ours (Calls in Flight: Auto)',
			overIdeal: Number(cell.oursOverIdeal.toFixed(2)),
		},
		{
			latencyMs: cell.latencyMs,
			scenario: `ours, fixed ${network.fixedCallsInFlight}`,
			overIdeal: Number(cell.oursFixedOverIdeal.toFixed(2)),
		},
		{
			latencyMs: cell.latencyMs,
			scenario: 'raw keep-alive client, best fixed width',
			overIdeal: Number((cell.bestLimitMs / cell.idealMs).toFixed(2)),
		},
	]);
	return {
		$schema: 'https://vega.github.io/schema/vega-lite/v6.json',
		config: { font: 'Helvetica, Arial, sans-serif', view: { stroke: null } },
		title:
			'Time / the ideal, by latency per call (lower is better; goal for ours: 1.15 at 20 ms and up)',
		width: 520,
		height: 240,
		data: { values },
		layer: [
			{
				mark: { type: 'line', point: true },
				encoding: {
					x: {
						field: 'latencyMs',
						type: 'ordinal',
						title: 'latency per call, ms',
						axis: { labelAngle: 0 },
					},
					y: { field: 'overIdeal', type: 'quantitative', title: 'time / ideal' },
					color: { field: 'scenario', type: 'nominal', title: null, sort: null },
				},
			},
			{
				data: { values: [{ goal: 1.15 }] },
				mark: { type: 'rule', strokeDash: [4, 4], color: '#888' },
				encoding: { y: { field: 'goal', type: 'quantitative' } },
			},
		],
	};
}

async function render(vegaLiteSpec) {
	const vegaLite = await import('vega-lite');
	const vega = await import('vega');
	const { spec } = vegaLite.compile(vegaLiteSpec);
	const view = new vega.View(vega.parse(spec), { renderer: 'none' });
	const svg = await view.toSVG();
	view.finalize();
	return svg;
}

const drawChart = (summary) => render(chartSpec(summary));
const drawLatencyChart = (network) => render(latencyChartSpec(network));

module.exports = { drawChart, drawLatencyChart, chartSpec, latencyChartSpec };
