/**
 * Runs `task` for every entry, in order, with at most `limit` running at once; resolves when all settled, rejects
 * with the first task that throws. `limit` may be a function (Calls in Flight: Auto): it is read again whenever a
 * task ends, so a lower number lets running tasks finish and starts none until fewer run.
 * `shouldStop` lets the caller stop starting new tasks (e.g. after a failure that ends the run).
 */
export async function runWithConcurrency<T>(
	entries: readonly T[],
	limit: number | (() => number),
	task: (entry: T, index: number) => Promise<void>,
	shouldStop: () => boolean = () => false,
): Promise<void> {
	const allowed = typeof limit === 'number' ? () => limit : limit;
	let next = 0;
	let running = 0;
	await new Promise<void>((resolve, reject) => {
		const fill = () => {
			while (next < entries.length && running < Math.max(1, allowed()) && !shouldStop()) {
				const index = next++;
				running++;
				task(entries[index], index).then(
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
