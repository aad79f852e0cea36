-- Floor-plan pins (docs/decisions/021): no drizzle-generated change; the columns came in 0013.
-- hand-written below
-- A pin belongs to its floor's plan: a shop or amenity moving to another floor loses it (by the API, an
-- import or the CLI alike), before the row is written.
CREATE FUNCTION clear_pin_on_floor_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.floor_id IS DISTINCT FROM OLD.floor_id THEN
    NEW.pin_x := NULL;
    NEW.pin_y := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER shops_clear_pin_on_floor_change BEFORE UPDATE OF floor_id ON shops
  FOR EACH ROW EXECUTE FUNCTION clear_pin_on_floor_change();
--> statement-breakpoint
CREATE TRIGGER amenities_clear_pin_on_floor_change BEFORE UPDATE OF floor_id ON amenities
  FOR EACH ROW EXECUTE FUNCTION clear_pin_on_floor_change();
--> statement-breakpoint
-- A floor whose plan is removed has nothing to pin on: its shops' and amenities' pins go with the plan.
-- A replaced plan keeps them (a redrawn plan of the same floor; the admin moves what moved).
CREATE FUNCTION floors_clear_pins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE shops SET pin_x = NULL, pin_y = NULL WHERE floor_id = NEW.id AND pin_x IS NOT NULL;
  UPDATE amenities SET pin_x = NULL, pin_y = NULL WHERE floor_id = NEW.id AND pin_x IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER floors_clear_pins AFTER UPDATE OF plan_image ON floors
  FOR EACH ROW WHEN (OLD.plan_image IS NOT NULL AND NEW.plan_image IS NULL)
  EXECUTE FUNCTION floors_clear_pins();
