// Forecast results: the single-resource PUT (the bulk update and GET/DELETE are shared with the
// planning results in ./planningResults.ts).
import type { Database } from '../db/database.ts';
import { lockOwners } from '../db/repositories/planningResults.ts';
import { FORECAST_RESULTS, type ResultInput } from '../domain/planning.ts';
import { applyResult, requireOwner } from './planningResults.ts';

/** PUT /operations/{id}/forecastResult: full replacement; the operation must exist (404). */
export async function replaceForecastResult(db: Database, operationId: string, input: ResultInput) {
  const now = new Date();
  return db.transaction(async (tx) => {
    await requireOwner(tx, FORECAST_RESULTS, operationId);
    await lockOwners(tx, FORECAST_RESULTS, [operationId]);
    return applyResult(tx, FORECAST_RESULTS, { ...input, ownerId: operationId }, '', now);
  });
}
