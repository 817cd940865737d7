/**
 * Runs `task` for every entry, in order, with at most `limit` running at once; resolves when all settled, rejects
 * with the first task that throws. `limit` may be a function (Calls in Flight: Auto): it is read again whenever a
 * task ends, so a lower number lets running tasks finish and starts none until fewer run.
 * `entries` may be a function that gives the next entry, or undefined when there is none left: it is asked only when
 * a task may start, so an entry can be shaped by what the tasks before it learnt (Get Many's batch size).
 * `shouldStop` lets the caller stop starting new tasks (e.g. after a failure that ends the run).
 */
export async function runWithConcurrency<T>(
	entries: readonly T[] | (() => T | undefined),
	limit: number | (() => number),
	task: (entry: T, index: number) => Promise<void>,
	shouldStop: () => boolean = () => false,
): Promise<void> {
	const allowed = typeof limit === 'number' ? () => limit : limit;
	const nextEntry = typeof entries === 'function' ? entries : fromList(entries);
	let started = 0;
	let running = 0;
	await new Promise<void>((resolve, reject) => {
		const fill = () => {
			while (running < Math.max(1, allowed()) && !shouldStop()) {
				const entry = nextEntry();
				if (entry === undefined) break;
				const index = started++;
				running++;
				task(entry, index).then(
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

function fromList<T>(entries: readonly T[]): () => T | undefined {
	let next = 0;
	return () => (next < entries.length ? entries[next++] : undefined);
}

export function chunk<T>(entries: readonly T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < entries.length; start += size) chunks.push(entries.slice(start, start + size));
	return chunks;
}
