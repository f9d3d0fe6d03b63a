// Open periods (the current operating state and phase) count up to the app's clock: a
// ManualClock that stands still gives exact figures, and moving it moves them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { ManualClock } from '../../src/background/clock.ts';
import { OPERATING_STATES } from '../../src/domain/masterData.ts';
import { createOperation, createWorkplace, describeEachBackend, json } from '../support/app.ts';

const API = '/api/v2';
const MIN = 60_000;
const PRODUCTION = OPERATING_STATES.find((state) => state.code === '000')?.id as string;

describeEachBackend(
  'summaries up to the clock',
  (t) => {
    test('an open state and an open phase last until now, and grow when the clock moves', async () => {
      const clock = t().app.clock as ManualClock;
      const workplaceId = await createWorkplace(t(), 'CLK-1');
      const operationId = await createOperation(t(), 'CLK-OP', { workplaceId, targetTimePerUnit: MIN });
      // Replace the state recorded at creation (system time) by one open since 2 h before the clock.
      const since = new Date(clock.now().getTime() - 120 * MIN);
      await t().app.db.query('DELETE FROM recorded_operating_states WHERE workplace_id = $1', [workplaceId]);
      await t().app.db.query(
        `INSERT INTO recorded_operating_states (id, workplace_id, operating_state_id, start_date, end_date)
         VALUES ($1, $2, $3, $4, NULL)`,
        [randomUUID(), workplaceId, PRODUCTION, since],
      );
      await t().app.db.query(
        `INSERT INTO recorded_operation_phases (id, operation_id, operation_phase_id, workplace_id, start_date, end_date)
         VALUES ($1, $2, 'PROCESSING', $3, $4, NULL)`,
        [randomUUID(), operationId, workplaceId, since],
      );
      const read = async (url: string) => {
        const response = await t().request({ url: `${API}${url}` });
        assert.equal(response.statusCode, 200, response.body);
        return json(response).properties;
      };

      const operation = await read(`/operations/${operationId}/operatingStateSummary`);
      assert.equal(operation.processingTime, 120 * MIN);
      assert.deepEqual(
        operation.elements.map((e: { operatingState: { code: string }; duration: number }) => [
          e.operatingState.code,
          e.duration,
        ]),
        [['000', 120 * MIN]],
      );
      const report = await read(`/reports/overallEquipmentEfficiency?workplaceId=${workplaceId}`);
      assert.equal(report.endDate, clock.now().toISOString());
      assert.equal(report.productionTime, 120 * MIN);
      // The default window is the 24 h up to the clock, no shifts: 22 h of it without a state.
      assert.equal(report.plannedProductionTime, 24 * 60 * MIN);

      clock.advance(15 * MIN);
      assert.equal(
        (await read(`/operations/${operationId}/operatingStateSummary`)).processingTime,
        135 * MIN,
      );
      const workplace = await read(`/workplaces/${workplaceId}/operatingStateSummary`);
      assert.equal(workplace.processingTime, 135 * MIN);
      assert.equal(workplace.elements[0].duration, 135 * MIN);
    });
  },
  {},
  () => ({ clock: new ManualClock() }),
);
