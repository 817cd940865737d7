import { readServiceError } from './answers';

/**
 * The last segment of a path that no operation serves. An answer proves little alone: a 404 may be the service's "no
 * such handler" or anyone's "no such path" (the service's own, a gateway's, a wrong address's). The same request to
 * the path beside it, which nothing serves, tells them apart (docs/service-interface.md, Authentication).
 */
export const NOWHERE = 'no-such-operation-n8n-path-check';

export type Answered = { statusCode: number; body?: unknown };

/** `url` with its last segment replaced by NOWHERE. */
export function pathBeside(url: string): string {
	return url.slice(0, url.lastIndexOf('/') + 1) + NOWHERE;
}

/** An answer worth comparing with: not a 429 or a 5xx, which say nothing about the path. */
export function comparable(beside: Answered): boolean {
	return beside.statusCode !== 429 && beside.statusCode < 500;
}

/**
 * Whether `answer` (to `url`) is the answer of the path beside it, `beside`: the same status, web page or not, code
 * and message, once the beside path's last segment is read as `url`'s. `namesPath`: that answer names the path.
 */
export function sameAsBeside(url: string, answer: Answered, beside: Answered): { same: boolean; namesPath: boolean } {
	const fingerprint = ({ statusCode, body }: Answered) => {
		const { page, code, message } = readServiceError(body);
		return JSON.stringify([statusCode, page, code, message]);
	};
	const theirs = fingerprint(beside);
	const same = theirs.split(NOWHERE).join(url.slice(url.lastIndexOf('/') + 1)) === fingerprint(answer);
	return { same, namesPath: same && theirs.includes(NOWHERE) };
}
