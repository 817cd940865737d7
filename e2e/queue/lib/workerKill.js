// What a worker's SIGKILL cut off, read from two sources that each answer one question:
// - which jobs the killed worker held: its "Worker started execution N" lines, and every execution
// the surviving
// worker never started (a job taken from the queue but not yet logged as started fails with the
// others);
// - what finished: n8n's execution records in PostgreSQL (execution_entity: status, "stoppedAt"),
// not the worker's
// "Worker finished execution N" line. A worker writes the execution to the database before it logs
// that line, so a
// kill between the two leaves an execution that succeeded without its line (issue 59: about one run
// in three). An execution the killed worker held was finished by it when its record was stopped at
// or before the moment the worker's process group had exited; anything stopped later was stopped by
// someone else (n8n 2.x's main failing the stalled job, or n8n 1.x's surviving worker running it
// again).

/** Execution ids in a worker's log, in order of their lines: verb 'started' or 'finished'. */
function executionIdsLogged(logText, verb) {
	return [...logText.matchAll(new RegExp(`Worker ${verb} execution (\\d+)`, 'g'))].map(
		(match) => match[1],
	);
}

const byNumber = (a, b) => Number(a) - Number(b);
const sortedIds = (ids) => [...new Set(ids)].sort(byNumber);

/**
 * @param {object} input
 * @param {string} input.victimLog    the killed worker's log
 * @param {string} input.survivorLog  the other worker's log
 * @param {{ id: string|number, status: string, stoppedAt: number|null }[]} input.rows the
 * workflow's
 *   execution_entity rows; stoppedAt in ms since the epoch (null while not stopped)
 * @param {number} input.killedAt ms since the epoch by which the killed worker's process group had
 * exited
 * @returns {{ held: string[], finishedBeforeKill: string[], finishedWithoutLogLine: string[],
 * cutOff: string[],
 * failed: string[], startedBySurvivor: string[], startedByBoth: string[] }} execution ids, sorted
 * numerically
 */
function readWorkerKill({ victimLog, survivorLog, rows, killedAt }) {
	const records = new Map(rows.map((row) => [String(row.id), row]));
	const startedByVictim = new Set(executionIdsLogged(victimLog, 'started'));
	const startedBySurvivor = new Set(executionIdsLogged(survivorLog, 'started'));
	const finishedLines = new Set(executionIdsLogged(victimLog, 'finished'));
	const held = sortedIds(
		[...records.keys()].filter((id) => startedByVictim.has(id) || !startedBySurvivor.has(id)),
	);
	const stoppedBeforeKill = (id) => {
		const row = records.get(id);
		return (
			row !== undefined &&
			row.stoppedAt !== null &&
			row.stoppedAt !== undefined &&
			row.stoppedAt <= killedAt
		);
	};
	const finishedBeforeKill = held.filter(stoppedBeforeKill);
	return {
		held,
		finishedBeforeKill,
		finishedWithoutLogLine: finishedBeforeKill.filter((id) => !finishedLines.has(id)),
		cutOff: held.filter((id) => !stoppedBeforeKill(id)),
		failed: sortedIds(rows.filter((row) => row.status !== 'success').map((row) => String(row.id))),
		startedBySurvivor: sortedIds([...records.keys()].filter((id) => startedBySurvivor.has(id))),
		startedByBoth: sortedIds(
			[...records.keys()].filter((id) => startedBySurvivor.has(id) && startedByVictim.has(id)),
		),
	};
}

/**
 * A workflow's execution records as readWorkerKill takes them, from the cluster's PostgreSQL
 * (infra.startPostgres).
 */
async function executionRecords(postgres, workflowId) {
	if (!/^[A-Za-z0-9_-]+$/.test(String(workflowId)))
		throw new Error(`unexpected workflow id ${workflowId}`);
	const rows = await postgres.rows(
		'SELECT id::text AS id, status, finished, (extract(epoch FROM "stoppedAt") * 1000)::bigint AS "stoppedAt" ' +
			`FROM execution_entity WHERE "workflowId" = '${workflowId}' ORDER BY id`,
	);
	return rows.map((row) => ({
		...row,
		stoppedAt: row.stoppedAt === null ? null : Number(row.stoppedAt),
	}));
}

module.exports = { readWorkerKill, executionIdsLogged, executionRecords };
