import type {
	IDataObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { readServiceError } from './answers';
import { ENDPOINTS, type Endpoint } from './endpoints';
import {
	failureFromAnswer,
	failureFromNetwork,
	notAnAddress,
	passedCheck,
	SAME_ADDRESS_NOTE,
	waitNotes,
	type Failure,
	type Passed,
} from './outcome';
import { RateLimitGate, retryRateLimited, type Sent } from './rateLimit';
import { credentialVerdictOf } from './render';
import { isHttpUrl, joinUrl, pathBeside } from './urls';
import { compareBeside, tokenVerdict, type Answered, type Beside } from './verdicts';

// The Test button waits: 5 s at most for 429s.
const RETRY_POLICY = { maxRetries: 3, maxTotalWaitMs: 5_000, baseDelayMs: 500 };
const TIMEOUT_MS = 15_000;

type Session = {
	helpers: ICredentialTestFunctions['helpers'];
	token: unknown;
	gate: RateLimitGate;
};
/** `at`: the URL sent to; `unserved`: a path nothing serves (the App Base URL's check). */
type Check = { endpoint: Endpoint; at: string; body: IDataObject; unserved: boolean };

async function send(
	{ helpers, token, gate }: Session,
	url: string,
	body: IDataObject,
): Promise<Sent<Answered>> {
	const headers = { Authorization: `Bearer ${String(token ?? '')}`, Accept: 'application/json' };
	const request = {
		method: 'POST',
		uri: url,
		body,
		json: true,
		headers,
		timeout: TIMEOUT_MS,
		simple: false,
		resolveWithFullResponse: true,
	};
	// This context has only n8n's legacy request helper, which does not authenticate.
	return await retryRateLimited(gate, async () => {
		await gate.pass();
		return await helpers.request(request).then(
			(response: Answered) => ({ response }),
			(error: unknown) => ({ error }),
		);
	});
}

/**
 * The path beside's answer: a different one proves something serves the operation; the same,
 * nothing, if it names the path.
 */
function besideOf(session: Session, check: Check, answer: Answered): Promise<Beside> {
	return compareBeside(check.at, answer, async (url) => {
		const sent = await send(session, url, check.body);
		return 'response' in sent ? sent.response : undefined;
	});
}

/**
 * A 401 or 403 shows the service refusing the token only where a path nothing serves answers
 * otherwise.
 */
async function tokenCheck(
	session: Session,
	check: Check,
	answer: Answered,
): Promise<Failure | undefined> {
	const { statusCode: status, body } = answer;
	const first = tokenVerdict(status, readServiceError(body), session.token, check.unserved);
	if (first === undefined) return undefined;
	const beside =
		first === 'refused' || first === 'lacksScope'
			? await besideOf(session, check, answer)
			: undefined;
	return failureFromAnswer(status, body, {
		...check,
		accessToken: session.token,
		beside,
		unserved: check.unserved || beside?.same,
	});
}

/**
 * Sends a check and reads what any answer shows (none, a 401 or 403, a 429 or a 5xx), and `read`
 * the rest; the `unseen` statuses pass, where they cannot show what is wrong.
 */
async function checked(
	session: Session,
	check: Check,
	read: (answer: Answered) => Failure | Passed | Promise<Failure | Passed>,
	unseen: number[] = [],
): Promise<Failure | Passed> {
	const sent = await send(session, check.at, check.body);
	if ('error' in sent) return failureFromNetwork(sent.error, check);
	const { statusCode: status, body, headers } = sent.response;
	const notes = waitNotes(session.gate, status === 429 ? headers['retry-after'] : undefined);
	if (unseen.includes(status)) return passedCheck('appUnseen', status, body, { ...check, notes });
	if (status === 429 || status >= 500)
		return failureFromAnswer(status, body, {
			...check,
			reading: status === 429 ? 'rateLimited' : undefined,
			notes,
		});
	return (await tokenCheck(session, check, sent.response)) ?? (await read(sent.response));
}

/**
 * The empty lookup at the Base URL; an answer that proves nothing alone is compared with the path
 * beside's.
 */
async function lookUpVerdict(
	session: Session,
	check: Check,
	answer: Answered,
): Promise<Failure | Passed> {
	const { statusCode: status, body } = answer;
	if (status >= 200 && status < 300 && typeof body === 'string')
		return failureFromAnswer(status, body, { ...check, reading: 'notJson' });
	if (status >= 200 && status < 300)
		return passedCheck('works', status, body, { ...check, notes: waitNotes(session.gate) });
	const beside = await besideOf(session, check, answer);
	if (beside.namesPath)
		return failureFromAnswer(status, body, { ...check, beside, reading: 'wrongAddress' });
	return passedCheck(beside.compared && !beside.same ? 'serves' : 'unconfirmed', status, body, {
		...check,
		beside,
	});
}

/**
 * The App Base URL serves only restores, which change data: its check is beside the restore path;
 * only a real restore proves restores. Fails on what shows something wrong, on nothing reachable,
 * or on nothing proven.
 */
export async function testInventoryOpsApiCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const [baseUrl, appBaseUrl] = [data.baseUrl, data.appBaseUrl].map((url) =>
		typeof url === 'string' ? url.trim() : '',
	);
	for (const [field, url] of [
		['Base URL', baseUrl],
		['App Base URL', appBaseUrl],
	] as const) {
		if (!isHttpUrl(url)) return credentialVerdictOf([notAnAddress(field, url)]);
	}
	const session: Session = {
		helpers: this.helpers,
		token: data.accessToken,
		gate: new RateLimitGate(RETRY_POLICY),
	};
	const lookUpCheck: Check = {
		endpoint: 'orderGetSingleBulk',
		at: joinUrl(baseUrl, ENDPOINTS.orderGetSingleBulk.path),
		body: { order: [] },
		unserved: false,
	};
	const lookUp = await checked(
		session,
		lookUpCheck,
		async (answer) => await lookUpVerdict(session, lookUpCheck, answer),
	);
	if (lookUp.kind !== 'passed') return credentialVerdictOf([lookUp]);
	const appCheck: Check = {
		endpoint: 'shipmentRestoreInventory',
		at: pathBeside(joinUrl(appBaseUrl, ENDPOINTS.shipmentRestoreInventory.path)),
		body: {},
		unserved: true,
	};
	const notes = joinUrl(appBaseUrl, '') === joinUrl(baseUrl, '') ? [SAME_ADDRESS_NOTE] : [];
	// Once the token is proven, a gateway's refusal or rate limit at a path it does not route shows
	// nothing wrong.
	const unseen = /^2\d\d$/.test(String(lookUp.status)) ? [401, 403, 429] : [];
	const read = ({ statusCode, body }: Answered) =>
		passedCheck('appAnswers', statusCode, body, { ...appCheck, notes });
	return credentialVerdictOf([lookUp, await checked(session, appCheck, read, unseen)]);
}
