-- A workplace's location: the geographic coordinates the real API serves at
-- /workplaces/{id}/location (docs/resources/workplaces.md, "Location"). Both or neither: null is
-- an unknown location.
ALTER TABLE workplaces
  ADD COLUMN latitude double precision,
  ADD COLUMN longitude double precision,
  ADD CONSTRAINT workplaces_geo_coordinates CHECK (
    (latitude IS NULL) = (longitude IS NULL)
    AND latitude BETWEEN -90 AND 90
    AND longitude BETWEEN -180 AND 180
  );
