/**
 * Runs `task` for every entry with at most `limit` running at once; resolves when all settled.
 * `shouldStop` lets the caller stop starting new tasks (e.g. after a failure that ends the run).
 */
export async function runWithConcurrency<T>(
	entries: readonly T[],
	limit: number,
	task: (entry: T, index: number) => Promise<void>,
	shouldStop: () => boolean = () => false,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < entries.length && !shouldStop()) {
			const index = next++;
			await task(entries[index], index);
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(limit, entries.length)) }, worker);
	await Promise.all(workers);
}

export function chunk<T>(entries: readonly T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < entries.length; start += size) chunks.push(entries.slice(start, start + size));
	return chunks;
}
