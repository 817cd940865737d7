'use strict';

const { buildCatalog, objectId } = require('./seed');
const { OrderBook } = require('./orderBook');
const { Deliverer } = require('./deliveries');
const { DEFAULT_SWITCHES } = require('./switches');

const DEFAULT_RATE_LIMIT = { max: 600, windowMs: 60_000 };
const DEFAULT_DELIVERY = { maxAttempts: 4, baseDelayMs: 200, timeoutMs: 5000 };
// Orders up to this count are built and serialised in the background after start, so no lookup pays
// for building one; more are built when first read. `prebuild: true` builds all before listening
// (benchmarks).
const BACKGROUND_PREBUILD_LIMIT = 20_000;
const PREBUILD_CHUNK = 200;

/** Everything the sandbox remembers; `reset()` puts it back to the freshly seeded state. */
class SandboxState {
	constructor(options) {
		this.options = options;
		this.deliverer = new Deliverer({
			getHandlers: () => [...this.handlers.values()],
			getSettings: () => this.config.delivery,
			getBodyShape: () => this.config.deliveryBody,
		});
		this.counter = 0;
		// Every id handed out, never reset: a remove_handler for any other id is a probe's or a typing
		// error's.
		this.issued = new Set();
		this.shuffles = 0;
		// Connections that have carried a service call, to count them and to charge the first call on
		// each.
		this.sockets = new WeakSet();
		this.connections = 0;
		this.reset();
	}

	reset() {
		const { seed, orders } = this.options;
		const started = process.hrtime.bigint();
		this.catalog = buildCatalog(seed);
		this.itemsById = new Map(this.catalog.items.map((item) => [item.item_id, item]));
		if (this.orders) this.orders.restart(this.catalog, this.itemsById);
		else {
			this.orders = new OrderBook(seed, orders, this.catalog, this.itemsById);
			if (this.options.prebuild === true) this.orders.prebuild();
		}
		this.seedMs = Number(process.hrtime.bigint() - started) / 1e6;
		this.kits = [];
		this.handlers = new Map();
		this.restored = new Set();
		this.calls = [];
		this.inbox = [];
		this.faults = [];
		this.rateWindows = new Map();
		this.config = this.mergeConfig(
			{ ...DEFAULT_SWITCHES, rateLimit: DEFAULT_RATE_LIMIT, delivery: DEFAULT_DELIVERY },
			{
				...this.options.config,
				rateLimit: this.options.rateLimit,
				delivery: this.options.delivery,
			},
		);
		this.deliverer.reset();
	}

	/**
	 * Builds the orders in small chunks between requests until all are built or `stop()` is called.
	 */
	warmUp() {
		const { prebuild, orders } = this.options;
		if (prebuild === false || prebuild === true || orders > BACKGROUND_PREBUILD_LIMIT) return;
		let next = 0;
		const step = () => {
			this.orders.prebuild(next, next + PREBUILD_CHUNK);
			next += PREBUILD_CHUNK;
			if (next < orders) this.warmUpTimer = setImmediate(step);
		};
		this.warmUpTimer = setImmediate(step);
	}

	stop() {
		clearImmediate(this.warmUpTimer);
		this.deliverer.reset();
	}

	/** Applies switches over the current config; `undefined` leaves a switch as it is. */
	mergeConfig(base, changes) {
		const config = { ...base };
		for (const [name, value] of Object.entries(changes ?? {})) {
			if (value === undefined) continue;
			if (name === 'removeUnknown') config.removeUnknown = String(value) === '404' ? 404 : value;
			// The older boolean switch, still accepted: true is `top`, false is `none`.
			else if (name === 'addHandlerReturnsId') config.addHandlerId = value ? 'top' : 'none';
			else if (name === 'rateLimit')
				config.rateLimit = value === false ? false : { ...DEFAULT_RATE_LIMIT, ...value };
			else if (name === 'delivery') config.delivery = { ...base.delivery, ...value };
			else config[name] = value;
		}
		return config;
	}

	configure(changes) {
		this.config = this.mergeConfig(this.config, changes);
		if ('rateLimit' in (changes ?? {})) this.rateWindows.clear();
		return this.config;
	}

	/** A fresh 24-hex identifier for records the service creates (kits, handlers). */
	newId(kind) {
		const id = objectId(kind, this.options.seed, 0x10000000 + ++this.counter);
		this.issued.add(id);
		return id;
	}

	/** Counts a call against the token's window; returns the seconds to wait when over the limit. */
	rateLimited(token) {
		const limit = this.config.rateLimit;
		if (!limit) return undefined;
		const now = Date.now();
		let window = this.rateWindows.get(token);
		if (!window || now - window.start >= limit.windowMs) {
			window = { start: now, count: 0 };
			this.rateWindows.set(token, window);
		}
		window.count++;
		if (window.count <= limit.max) return undefined;
		return Math.max(1, Math.ceil((window.start + limit.windowMs - now) / 1000));
	}

	/** The fault to apply to this call of `route`, if one is armed; each call uses up one. */
	takeFault(route) {
		const fault = this.faults.find(
			(candidate) => candidate.route === route && candidate.remaining > 0,
		);
		if (!fault) return undefined;
		fault.remaining--;
		if (fault.remaining === 0) this.faults.splice(this.faults.indexOf(fault), 1);
		return fault;
	}
}

module.exports = { SandboxState };
