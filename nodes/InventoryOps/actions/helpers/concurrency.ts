/**
 * Runs `task` for each entry `nextEntry` gives, with at most `limit` running at once, until it gives undefined;
 * resolves when all settled, rejects with the first task that throws. `nextEntry` is asked only when a task may
 * start, so an entry can be shaped by what the tasks before it learnt (Get Many's batch size). `limit` may be a
 * function (Calls in Flight: Auto): it is read again whenever a task ends, so a lower number lets running tasks
 * finish and starts none until fewer run. `shouldStop` lets the caller stop starting new tasks (e.g. after a
 * failure that ends the run).
 */
export async function runWithConcurrency<T>(
	nextEntry: () => T | undefined,
	limit: number | (() => number),
	task: (entry: T) => Promise<void>,
	shouldStop: () => boolean = () => false,
): Promise<void> {
	const allowed = typeof limit === 'number' ? () => limit : limit;
	let running = 0;
	await new Promise<void>((resolve, reject) => {
		const fill = () => {
			while (running < Math.max(1, allowed()) && !shouldStop()) {
				const entry = nextEntry();
				if (entry === undefined) break;
				running++;
				task(entry).then(
					() => {
						running--;
						fill();
					},
					reject,
				);
			}
			if (running === 0) resolve();
		};
		fill();
	});
}

export function chunk<T>(entries: readonly T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < entries.length; start += size) chunks.push(entries.slice(start, start + size));
	return chunks;
}
