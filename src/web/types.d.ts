// The API's resources as the dashboard reads them (the properties of HAL resources; see the
// OpenAPI document at /api/docs for all fields). Type-only: no module is served for this file.

export interface OperatingState {
  id: string;
  code: string;
  description: string;
  color?: string;
}

export interface Workplace {
  id: string;
  number: string;
  description?: string | null;
  operatingState?: OperatingState | null;
}

export interface Operation {
  id: string;
  number: string;
  description?: string | null;
  operationPhaseId: string;
  workplaceId?: string | null;
  productionOrderId?: string;
  targetQuantity?: number | null;
  quantityUnit?: string | null;
  startDate?: string | null;
  endDate?: string | null;
}

export interface QuantitySummary {
  targetQuantity: number | null;
  totalQuantity: number;
  elements?: { workplaceId: string | null; quantities: { yield: number } }[];
}

export interface OeeReport {
  oee: number | null;
  availability: number | null;
  performance: number | null;
  quality: number | null;
}

/** A ticket as the pages read it (docs/resources/tickets.md). */
export interface Ticket {
  id: string;
  number: string;
  title: string;
  priority: string;
  creationDate: string;
  ticketStateId: string;
  workplace: { id: string; number: string } | null;
}

/** An event of the event log or the event stream. */
export interface BridgeEvent {
  id: string;
  eventType: string;
  objectType?: string;
  objectId?: string;
  recordedAt?: string;
  timestamp?: string;
  // biome-ignore lint/suspicious/noExplicitAny: event data differ by type
  data?: Record<string, any>;
}

/** A page's teardown: unsubscribes and stops what the page started. */
export type Leave = () => void;
/** A page: renders into `root` and returns its teardown. */
export type Page = (root: HTMLElement, id: string) => Promise<Leave | undefined>;
