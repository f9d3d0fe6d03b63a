-- Planning and forecast results (contract 6): at most one of each kind per operation, one
-- planning result (the dispatching) per staff member. A result goes with its owner (cascade);
-- a workplace that a result plans on cannot be deleted (RESOURCE_IN_USE).
CREATE TABLE operation_forecast_results (
  operation_id          uuid PRIMARY KEY REFERENCES operations (id) ON DELETE CASCADE,
  workplace_id          uuid NOT NULL REFERENCES workplaces (id),
  start_date            timestamptz NOT NULL,
  end_date              timestamptz NOT NULL,
  setup_start_date      timestamptz,
  setup_end_date        timestamptz,
  processing_start_date timestamptz,
  processing_end_date   timestamptz,
  fixed                 boolean NOT NULL,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
-- Forecasts of a workplace that are still running (OBSOLETE_OPERATION_FORECAST_RESULTS).
CREATE INDEX operation_forecast_results_workplace ON operation_forecast_results (workplace_id, end_date);

CREATE TABLE operation_planning_results (
  operation_id          uuid PRIMARY KEY REFERENCES operations (id) ON DELETE CASCADE,
  workplace_id          uuid NOT NULL REFERENCES workplaces (id),
  start_date            timestamptz NOT NULL,
  end_date              timestamptz NOT NULL,
  setup_start_date      timestamptz,
  setup_end_date        timestamptz,
  processing_start_date timestamptz,
  processing_end_date   timestamptz,
  fixed                 boolean NOT NULL,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE INDEX operation_planning_results_workplace ON operation_planning_results (workplace_id);

CREATE TABLE staff_member_planning_results (
  staff_member_id       uuid PRIMARY KEY REFERENCES staff_members (id) ON DELETE CASCADE,
  workplace_id          uuid NOT NULL REFERENCES workplaces (id),
  start_date            timestamptz NOT NULL,
  end_date              timestamptz NOT NULL,
  setup_start_date      timestamptz,
  setup_end_date        timestamptz,
  processing_start_date timestamptz,
  processing_end_date   timestamptz,
  fixed                 boolean NOT NULL,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE INDEX staff_member_planning_results_workplace ON staff_member_planning_results (workplace_id);

-- Planning scenarios are snapshots: their elements are kept as sent (jsonb, no foreign keys),
-- so a scenario stays readable after the operations or staff members it names are gone.
CREATE TABLE planning_scenarios (
  id             uuid PRIMARY KEY,
  kind           text NOT NULL CHECK (kind IN ('OPERATION', 'STAFF_MEMBER')),
  name           text,
  description    text,
  elements       jsonb NOT NULL,
  created_at     timestamptz NOT NULL,
  obsolete_since timestamptz
);
CREATE INDEX planning_scenarios_list ON planning_scenarios (kind, created_at DESC, id DESC);
CREATE INDEX planning_scenarios_current ON planning_scenarios (kind) WHERE obsolete_since IS NULL;

-- Predictions belong to their workplace and go with it.
CREATE TABLE predicted_malfunction_scenarios (
  id                 uuid PRIMARY KEY,
  workplace_id       uuid NOT NULL REFERENCES workplaces (id) ON DELETE CASCADE,
  start_date         timestamptz NOT NULL,
  end_date           timestamptz NOT NULL,
  probability        double precision NOT NULL CHECK (probability BETWEEN 0 AND 1),
  -- Operating states are master data defined in code (src/domain/masterData.ts).
  operating_state_id uuid,
  description        text,
  created_at         timestamptz NOT NULL,
  obsolete_since     timestamptz
);
CREATE INDEX predicted_malfunction_scenarios_list
  ON predicted_malfunction_scenarios (created_at DESC, id DESC);
CREATE INDEX predicted_malfunction_scenarios_workplace
  ON predicted_malfunction_scenarios (workplace_id, created_at DESC, id DESC);
