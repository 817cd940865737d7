import { isIdLike, summaryOf } from '../../transport/answers';
import { isPlainObject } from '../../shared/objects';

export type ShipmentSelectors = Partial<
	Record<'shipment_id' | 'tracking_number' | 'carrier_shipment_id', string>
>;

function selectorValue(
	record: Record<string, unknown>,
	selector: keyof ShipmentSelectors,
): unknown {
	if (selector === 'shipment_id') return record._id;
	const response = isPlainObject(record.response) ? record.response : {};
	return selector === 'tracking_number' ? response.tracking_number : response.shipment_id;
}

/**
 * `restored`: the one record the selectors match; `missing`: what the answer lacks, with what
 * arrived.
 */
export function readRestoreAnswer(answer: Record<string, unknown>, selectors: ShipmentSelectors) {
	const missing = isIdLike(answer._id) ? [] : [`_id (got ${summaryOf(answer._id)})`];
	const { shipments } = answer;
	if (!Array.isArray(shipments) || !shipments.every(isPlainObject)) {
		const notRecords = Array.isArray(shipments)
			? shipments.filter((record) => !isPlainObject(record)).length
			: 0;
		const got = Array.isArray(shipments)
			? `a list with ${notRecords} entries that are not records`
			: summaryOf(shipments);
		return { missing: [...missing, `shipments (got ${got})`] };
	}
	const given = Object.keys(selectors) as Array<keyof ShipmentSelectors>;
	const matching = shipments.filter((record) =>
		given.every((key) => String(selectorValue(record, key)) === selectors[key]),
	);
	if (matching.length !== 1) {
		const got =
			matching.length === 0
				? 'no record matching the shipment asked for'
				: `${matching.length} records matching it`;
		return { shipments, missing: [...missing, `the restored shipment (got ${got})`] };
	}
	const [restored] = matching;
	const request = isPlainObject(restored.request) ? restored.request : {};
	if (Array.isArray(request.order_items))
		return { shipments, restored, restoredItems: request.order_items, missing };
	return {
		shipments,
		restored,
		missing: [...missing, "the restored shipment's request.order_items"],
	};
}
