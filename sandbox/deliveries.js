'use strict';

const { randomUUID } = require('node:crypto');

/** `order.status.*` matches `order.status.shipped`; anything else must be equal. */
function handlerMatches(handlerType, eventType) {
	if (handlerType === eventType) return true;
	if (handlerType.endsWith('.*')) return eventType.startsWith(handlerType.slice(0, -1));
	return false;
}

/** The delivery body in the shape the `deliveryBody` switch gives (sandbox/switches.js). */
function deliveryBody(event, shape) {
	if (shape === 'envelope')
		return {
			event_id: event.id,
			event_type: event.type,
			occurred_at: event.created_at,
			payload: event.data,
		};
	if (shape === 'array') return [event];
	if (shape === 'record') return event.data;
	return event;
}

/**
 * Sends events to the registered handlers: JSON POST, the handler's headers verbatim, bounded
 * retries with exponential backoff, every attempt recorded. `reset()` and `close()` stop retries
 * that are still waiting.
 */
class Deliverer {
	constructor({ getHandlers, getSettings, getBodyShape = () => 'event' }) {
		this.getHandlers = getHandlers;
		this.getBodyShape = getBodyShape;
		this.getSettings = getSettings;
		this.attempts = [];
		this.timers = new Set();
		this.controllers = new Set();
		this.generation = 0;
	}

	/** Starts delivery of one event; resolves `{ event, handlers, settled }` at once. */
	emit(type, data, id) {
		const event = {
			id: id ?? `evt_${randomUUID().replace(/-/g, '')}`,
			type,
			created_at: new Date().toISOString(),
			data: data ?? {},
		};
		const targets = this.getHandlers().filter((handler) => handlerMatches(handler.type, type));
		const settled = Promise.all(
			targets.map((handler) => this.deliver(event, handler, this.generation)),
		);
		return { event, handlers: targets.length, settled };
	}

	async deliver(event, handler, generation) {
		const { maxAttempts, baseDelayMs, timeoutMs } = this.getSettings();
		for (let attempt = 1; attempt <= maxAttempts; attempt++) {
			if (generation !== this.generation) return false;
			if (attempt > 1 && !this.getHandlers().some((current) => current._id === handler._id))
				return false;
			const record = {
				event_id: event.id,
				type: event.type,
				handler_id: handler._id,
				url: handler.handler.url,
				attempt,
				status: null,
				error: null,
				time: new Date().toISOString(),
			};
			const controller = new AbortController();
			this.controllers.add(controller);
			const timer = setTimeout(
				() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)),
				timeoutMs,
			);
			try {
				const response = await fetch(handler.handler.url, {
					method: 'POST',
					headers: {
						...stringHeaders(handler.handler.headers),
						'content-type': 'application/json',
					},
					body: JSON.stringify(deliveryBody(event, this.getBodyShape())),
					signal: controller.signal,
				});
				await response.arrayBuffer().catch(() => undefined);
				record.status = response.status;
				if (response.status < 200 || response.status >= 300)
					record.error = `answered ${response.status}`;
			} catch (error) {
				record.error = String(
					controller.signal.reason?.message ?? error.cause?.code ?? error.message ?? error,
				);
			} finally {
				clearTimeout(timer);
				this.controllers.delete(controller);
			}
			if (generation !== this.generation) return false;
			this.attempts.push(record);
			if (record.error === null) return true;
			if (attempt < maxAttempts) await this.wait(baseDelayMs * 2 ** (attempt - 1));
		}
		return false;
	}

	wait(ms) {
		return new Promise((resolve) => {
			const pending = { resolve };
			pending.timer = setTimeout(() => {
				this.timers.delete(pending);
				resolve();
			}, ms);
			this.timers.add(pending);
		});
	}

	/** Forgets every attempt and abandons deliveries in flight. */
	reset() {
		this.generation++;
		this.attempts = [];
		for (const controller of this.controllers) controller.abort(new Error('sandbox reset'));
		for (const { timer, resolve } of this.timers) {
			clearTimeout(timer);
			resolve();
		}
		this.timers.clear();
	}
}

/**
 * Handler headers are sent verbatim; only non-string values are made strings so fetch accepts them.
 */
function stringHeaders(headers) {
	const result = {};
	for (const [name, value] of Object.entries(headers ?? {})) result[name] = String(value);
	return result;
}

module.exports = { Deliverer, handlerMatches };
