-- A product's offer must belong to the product's shop. The composite key does both jobs: it refuses an
-- offer of another shop, and deleting an offer clears offer_id only (shop_id stays). Drizzle's schema
-- cannot express SET NULL with a column list (PostgreSQL 15+), hence this hand-written migration.
ALTER TABLE "products"
  ADD CONSTRAINT "products_offer_same_shop_fk"
  FOREIGN KEY ("offer_id", "shop_id") REFERENCES "offers" ("id", "shop_id")
  ON DELETE SET NULL ("offer_id");
