// History collections in the SDK's form (docs/api.md, "Collections"): besides the `_embedded`
// records, a page carries them as `properties.elements[]`, a period as `timePeriod`, so readers
// of either form work.
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { OPERATION_PHASE_IDS } from '../../domain/operationPhases.ts';
import { phaseTimes, type RecordedOperationPhase } from '../../domain/operations.ts';
import type { RecordedOutputQuantity } from '../../domain/outputQuantities.ts';
import type { RecordedOperatingState } from '../../domain/workplaces.ts';
import { Nullable, OperatingStateProperty } from '../schemas/common.ts';
import { iso } from './properties.ts';

/** What a page of records shows in its `properties`. */
export interface PageElements<Item, Filter = unknown> {
  schema: TSchema;
  /** From the page's items, or from the whole filtered collection (a summary of every page). */
  of: (
    items: Item[],
    request: FastifyRequest,
    filter: Filter,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
}

const DateTime = Type.String({ format: 'date-time' });
export const TimePeriodSchema = Type.Object({
  startDate: DateTime,
  endDate: Nullable(DateTime),
  duration: Nullable(Type.Integer({ description: 'ms; null while the period is open' })),
});

/** A period as the SDK's timePeriod: its duration null while it is open. */
export const timePeriod = (period: { startDate: Date; endDate: Date | null }) => ({
  startDate: period.startDate.toISOString(),
  endDate: iso(period.endDate),
  duration: period.endDate === null ? null : period.endDate.getTime() - period.startDate.getTime(),
});

/** One operating state over a period, as histories of operating states show it. */
export const OperatingStateElement = Type.Object({
  operatingState: OperatingStateProperty,
  timePeriod: TimePeriodSchema,
});

/** Recorded operating states: each with its operating state and period. */
export const operatingStateElements = (
  stateOf: (record: RecordedOperatingState, request: FastifyRequest) => unknown,
): PageElements<RecordedOperatingState> => ({
  schema: Type.Object({ elements: Type.Array(OperatingStateElement) }),
  of: (items, request) => ({
    elements: items.map((record) => ({
      operatingState: stateOf(record, request),
      timePeriod: timePeriod(record),
    })),
  }),
});

/**
 * Recorded operation phases, with the setup and processing time of the page's records (an open
 * one counted until now) and their sum, which operations call executionTime and workplaces
 * occupancyTime.
 */
export const phaseElements = (
  total: 'executionTime' | 'occupancyTime',
): PageElements<RecordedOperationPhase> => ({
  schema: Type.Object({
    elements: Type.Array(
      Type.Object({
        operationPhaseId: Type.Enum([...OPERATION_PHASE_IDS]),
        operationId: Type.String(),
        workplaceId: Nullable(Type.String()),
        startDate: DateTime,
        endDate: Nullable(DateTime),
      }),
    ),
    processingPhaseDuration: Type.Integer(),
    setupPhaseDuration: Type.Integer(),
    [total]: Type.Integer(),
    startDate: Nullable(DateTime),
    endDate: Nullable(DateTime),
  }),
  of: (items) => {
    const times = phaseTimes(items, new Date());
    return {
      elements: items.map((record) => ({
        operationPhaseId: record.operationPhaseId,
        operationId: record.operationId,
        workplaceId: record.workplaceId,
        startDate: record.startDate.toISOString(),
        endDate: iso(record.endDate),
      })),
      processingPhaseDuration: times.processingTime,
      setupPhaseDuration: times.setupTime,
      [total]: times.executionTime,
      startDate: iso(times.startDate),
      endDate: iso(times.endDate),
    };
  },
});

/** Booked output quantities: the quantity type as qualityTypeId (quality details are not kept). */
export const outputQuantityElements: PageElements<RecordedOutputQuantity> = {
  schema: Type.Object({
    elements: Type.Array(
      Type.Object({
        qualityTypeId: Type.String(),
        bookingTime: DateTime,
        qualityDetailId: Type.Null(),
        quantity: Type.Number(),
      }),
    ),
  }),
  of: (items) => ({
    elements: items.map((record) => ({
      qualityTypeId: record.quantityType,
      bookingTime: record.timestamp.toISOString(),
      qualityDetailId: null,
      quantity: record.quantity,
    })),
  }),
};
