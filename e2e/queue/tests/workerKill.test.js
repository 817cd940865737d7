// The reading of the worker-kill scenario (queue-mode.test.js) on fixed logs and execution records:
// no cluster, so it runs in a second at the start of `npm run e2e:queue`.
const { readWorkerKill, executionIdsLogged } = require('../lib/workerKill');

const KILLED_AT = Date.parse('2026-11-25T10:00:00.000Z');
const lines = (...entries) => entries.map((entry) => `${entry}\n`).join('');

/**
 * The reading before issue 59: cut off = "started" in the killed worker's log without a "finished"
 * line.
 */
function logOnlyCutOff(victimLog) {
	const finished = new Set(executionIdsLogged(victimLog, 'finished'));
	return executionIdsLogged(victimLog, 'started').filter((id) => !finished.has(id));
}

describe('what a worker SIGKILL cut off (n8n 2.x: the cut-off jobs fail)', () => {
	// worker-1 finished 101; it wrote 102 to the database as success 40 ms before the kill and died
	// before its "finished" line; 103 was in flight; 104 it had taken from the queue but not yet
	// logged. n8n's main failed 103 and 104 once their locks ran out; worker-2 ran 100 and 105.
	const input = {
		victimLog: lines(
			'Worker started execution 101 (job 101)',
			'Worker started execution 102 (job 102)',
			'Worker started execution 103 (job 103)',
			'Worker finished execution 101 (job 101)',
			'===== exit code=null signal=SIGKILL =====',
		),
		survivorLog: lines(
			'Worker started execution 100 (job 100)',
			'Worker finished execution 100 (job 100)',
			'Worker started execution 105 (job 105)',
			'Worker finished execution 105 (job 105)',
		),
		rows: [
			{ id: '100', status: 'success', stoppedAt: KILLED_AT - 2000 },
			{ id: '101', status: 'success', stoppedAt: KILLED_AT - 500 },
			{ id: '102', status: 'success', stoppedAt: KILLED_AT - 40 },
			{ id: '103', status: 'crashed', stoppedAt: KILLED_AT + 9000 },
			{ id: '104', status: 'crashed', stoppedAt: KILLED_AT + 9000 },
			{ id: '105', status: 'success', stoppedAt: KILLED_AT + 1500 },
		],
		killedAt: KILLED_AT,
	};
	const failed = input.rows.filter((row) => row.status !== 'success').map((row) => row.id);

	test('the log-only reading counts 102 (finished in the database, no "finished" line) as cut off, so 102 "should have failed"', () => {
		const cutOff = logOnlyCutOff(input.victimLog);
		expect(cutOff).toEqual(['102', '103']);
		expect(cutOff.filter((id) => !failed.includes(id))).toEqual(['102']);
	});

	test('the reading from the execution records: 102 finished before the kill; 103 and 104 cut off, exactly the failures', () => {
		const kill = readWorkerKill(input);
		expect(kill).toEqual({
			held: ['101', '102', '103', '104'],
			finishedBeforeKill: ['101', '102'],
			finishedWithoutLogLine: ['102'],
			cutOff: ['103', '104'],
			failed: ['103', '104'],
			startedBySurvivor: ['100', '105'],
			startedByBoth: [],
		});
		expect(kill.cutOff.filter((id) => !failed.includes(id))).toEqual([]);
	});

	test('a failure the survivor ran is not one the killed worker held', () => {
		const rows = input.rows.map((row) => (row.id === '105' ? { ...row, status: 'error' } : row));
		const kill = readWorkerKill({ ...input, rows });
		expect(kill.failed).toEqual(['103', '104', '105']);
		expect(kill.failed.filter((id) => !kill.held.includes(id))).toEqual(['105']);
	});

	test('an execution stopped after the kill without anyone running it again is cut off even when it says success', () => {
		const rows = input.rows.map((row) => (row.id === '103' ? { ...row, status: 'success' } : row));
		const kill = readWorkerKill({ ...input, rows });
		expect(kill.cutOff).toEqual(['103', '104']);
		expect(
			kill.cutOff.filter((id) => rows.find((row) => row.id === id).status === 'success'),
		).toEqual(['103']);
	});
});

describe('what a worker SIGKILL cut off (n8n 1.x: the survivor runs the cut-off jobs again)', () => {
	test('an execution the survivor ran again is cut off; one finished before the kill without its line is not', () => {
		const kill = readWorkerKill({
			victimLog: lines(
				'Worker started execution 201 (job 201)',
				'Worker started execution 202 (job 202)',
			),
			survivorLog: lines(
				'Worker started execution 202 (job 202)',
				'Worker started execution 203 (job 203)',
			),
			rows: [
				{ id: 201, status: 'success', stoppedAt: KILLED_AT - 10 },
				{ id: 202, status: 'success', stoppedAt: KILLED_AT + 12_000 },
				{ id: 203, status: 'success', stoppedAt: KILLED_AT + 12_500 },
			],
			killedAt: KILLED_AT,
		});
		expect(kill).toMatchObject({
			held: ['201', '202'],
			finishedBeforeKill: ['201'],
			cutOff: ['202'],
			failed: [],
			startedByBoth: ['202'],
		});
	});

	test('a record not stopped yet is not finished', () => {
		const kill = readWorkerKill({
			victimLog: lines('Worker started execution 7 (job 7)'),
			survivorLog: '',
			rows: [{ id: '7', status: 'running', stoppedAt: null }],
			killedAt: KILLED_AT,
		});
		expect(kill).toMatchObject({ finishedBeforeKill: [], cutOff: ['7'], failed: ['7'] });
	});
});
