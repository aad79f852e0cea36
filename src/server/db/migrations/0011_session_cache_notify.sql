-- hand-written below
-- The session cache (docs/decisions/027): every server keeps signed-in people and the catalogue version
-- in memory and LISTENs on 'mall_cache'. These triggers tell it, at commit, what to forget:
--   'u:<id>,<id>…'  these people's sessions (signed out, account changed or deleted, shops managed);
--   '*'             everything (a statement touching more people than one payload should carry);
--   'v:<version>'   the catalogue version raised by this transaction (migration 0002).
-- Any writer is covered — the app, a script, psql — since the database itself sends them.
CREATE FUNCTION "mall_cache_forget_users"("ids" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF "ids" IS NULL OR cardinality("ids") = 0 THEN
    RETURN;
  END IF;
  IF cardinality("ids") > 100 THEN
    PERFORM pg_notify('mall_cache', '*');
  ELSE
    PERFORM pg_notify('mall_cache', 'u:' || array_to_string("ids", ','));
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "mall_cache_forget_old_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "mall_cache_forget_users"(ARRAY(SELECT DISTINCT "user_id" FROM "old_rows"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "mall_cache_forget_new_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "mall_cache_forget_users"(ARRAY(SELECT DISTINCT "user_id" FROM "new_rows"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "mall_cache_forget_both_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "mall_cache_forget_users"(ARRAY(SELECT "user_id" FROM "old_rows" UNION SELECT "user_id" FROM "new_rows"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "mall_cache_forget_changed_users"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "mall_cache_forget_users"(ARRAY(SELECT "id" FROM "old_rows"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "mall_cache_forget_session"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "mall_cache_forget_users"(ARRAY[OLD."user_id", NEW."user_id"]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "mall_cache_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mall_cache', 'v:' || NEW."version");
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Sign-out, sign-in (the old session), prune, and an account's deletion (cascade).
CREATE TRIGGER "sessions_mall_cache_delete" AFTER DELETE ON "sessions"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "mall_cache_forget_old_rows"();
--> statement-breakpoint
-- Anything but the last-seen time, which the server writes itself (at most every 5 minutes).
CREATE TRIGGER "sessions_mall_cache_update" AFTER UPDATE ON "sessions" FOR EACH ROW
  WHEN (OLD."token_hash" IS DISTINCT FROM NEW."token_hash" OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
        OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at")
  EXECUTE FUNCTION "mall_cache_forget_session"();
--> statement-breakpoint
-- Role, password, display name, email, last sign-in: whatever the session's person carries.
CREATE TRIGGER "users_mall_cache_update" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "mall_cache_forget_changed_users"();
--> statement-breakpoint
CREATE TRIGGER "users_mall_cache_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "mall_cache_forget_changed_users"();
--> statement-breakpoint
-- The shops a person manages (a shop's deletion removes its rows by cascade, which fires these too).
CREATE TRIGGER "shop_managers_mall_cache_insert" AFTER INSERT ON "shop_managers"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "mall_cache_forget_new_rows"();
--> statement-breakpoint
CREATE TRIGGER "shop_managers_mall_cache_delete" AFTER DELETE ON "shop_managers"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "mall_cache_forget_old_rows"();
--> statement-breakpoint
CREATE TRIGGER "shop_managers_mall_cache_update" AFTER UPDATE ON "shop_managers"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "mall_cache_forget_both_rows"();
--> statement-breakpoint
CREATE TRIGGER "catalog_version_mall_cache" AFTER UPDATE ON "catalog_version" FOR EACH ROW
  EXECUTE FUNCTION "mall_cache_catalog_version"();
