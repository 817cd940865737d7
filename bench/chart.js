'use strict';

// The throughput chart, drawn by vega-lite + vega (both ESM only, hence import()).

function chartSpec(summary) {
	const name = { ours: 'ours', oursList: 'ours, one list item', perItem: 'per item', limit: 'limit' };
	const main = [summary.ours, summary.oursList, summary.perItem, summary.limit].filter(Boolean).map((entry) => ({
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
					{ mark: { type: 'text', align: 'left', dx: 4 }, encoding: { text: { field: 'lookupsPerSecond', type: 'quantitative', format: ',' } } },
				],
			},
			{
				title: `Batch size × calls in flight: ours (solid${summary.gridKind === 'oursList' ? ', one list item' : ''}) and the limit (dashed)`,
				width: 520,
				height: 220,
				data: { values: grid },
				mark: { type: 'line', point: true },
				encoding: {
					x: { field: 'callsInFlight', type: 'ordinal', title: 'calls in flight', axis: { labelAngle: 0 } },
					y: { field: 'lookupsPerSecond', type: 'quantitative', title: 'lookups / s' },
					color: { field: 'batch', type: 'nominal', title: null, sort: null },
					strokeDash: { field: 'scenario', type: 'nominal', title: null, sort: ['ours', 'limit'] },
					detail: { field: 'scenario' },
				},
			},
		],
	};
}

async function drawChart(summary) {
	const vegaLite = await import('vega-lite');
	const vega = await import('vega');
	const { spec } = vegaLite.compile(chartSpec(summary));
	const view = new vega.View(vega.parse(spec), { renderer: 'none' });
	const svg = await view.toSVG();
	view.finalize();
	return svg;
}

module.exports = { drawChart, chartSpec };
