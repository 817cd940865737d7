'use strict';

const { ServiceError } = require('./errors');

// jose 6 is ESM only: Node 24 requires it natively, jest's module registry cannot, which is why the
// sandbox runs in a worker thread (index.js).
const { SignJWT, jwtVerify } = require('jose');
const { createSecretKey } = require('node:crypto');

const REQUIRED_SCOPE = 'platformApi';
const DEMO_SCOPES = ['platformGeneric', 'platformApi'];
const DAY_SECONDS = 24 * 60 * 60;
const VERIFIED_CACHE_SIZE = 1000;

/** HS256 tokens signed and checked with one secret per sandbox. */
function createTokenAuthority(secretText) {
	const secret = createSecretKey(secretText, 'utf8');
	// Tokens jose has verified, so a benchmark's thousands of calls do not each pay for an HMAC.
	const verified = new Map();

	async function issueToken({
		scopes = DEMO_SCOPES,
		expiresInSeconds = DAY_SECONDS,
		subject = 'sandbox-user',
	} = {}) {
		const now = Math.floor(Date.now() / 1000);
		return (
			new SignJWT({ scopes })
				.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
				.setSubject(subject)
				.setIssuer('inventory-ops-sandbox')
				// An already-expired token needs iat before exp, or it would not be a token anyone could
				// have held.
				.setIssuedAt(Math.min(now, now + expiresInSeconds - 1))
				.setExpirationTime(now + expiresInSeconds)
				.sign(secret)
		);
	}

	async function verify(token) {
		try {
			return (await jwtVerify(token, secret, { algorithms: ['HS256'] })).payload;
		} catch (error) {
			if (error?.code === 'ERR_JWT_EXPIRED') {
				const expiredAt = new Date(Number(error.payload?.exp) * 1000).toISOString();
				throw new ServiceError(401, 'TOKEN_EXPIRED', `The access token expired at ${expiredAt}`);
			}
			if (error?.code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') {
				throw new ServiceError(401, 'UNAUTHORIZED', 'The access token signature is invalid');
			}
			throw new ServiceError(401, 'UNAUTHORIZED', 'The access token is not a valid JWT');
		}
	}

	/**
	 * Resolves to the token's claims or throws a ServiceError (401/403); never puts the token in a
	 * message.
	 */
	async function authorize(authorizationHeader) {
		if (typeof authorizationHeader !== 'string' || authorizationHeader.trim() === '') {
			throw new ServiceError(
				401,
				'UNAUTHORIZED',
				'Missing Authorization header; send "Authorization: Bearer <token>"',
			);
		}
		const match = /^Bearer\s+(\S+)\s*$/i.exec(authorizationHeader);
		if (!match) {
			throw new ServiceError(
				401,
				'UNAUTHORIZED',
				'Malformed Authorization header; expected "Bearer <token>"',
			);
		}
		const token = match[1];
		let payload = verified.get(token);
		// Trusted again only until its exp; past it, jose checks it afresh and reports the expiry.
		if (payload === undefined || !(payload.exp * 1000 > Date.now())) {
			payload = await verify(token);
			if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
			verified.set(token, payload);
		}
		const scopes = Array.isArray(payload.scopes) ? payload.scopes : [];
		if (!scopes.includes(REQUIRED_SCOPE)) {
			throw new ServiceError(
				403,
				'FORBIDDEN',
				`The access token lacks the scope "${REQUIRED_SCOPE}" needed here (it has: ${scopes.join(', ') || 'none'})`,
			);
		}
		return payload;
	}

	return { issueToken, authorize };
}

module.exports = { createTokenAuthority, DEMO_SCOPES, REQUIRED_SCOPE };
