-- A buyer holds at most MAX_OPEN_TRADES pending trades, so that nobody can lock a seller's coins in
-- escrow with a pile of trades they never pay. Each pending trade occupies one of its buyer's numbered
-- places, and no two pending trades of one buyer may share a place (the unique index below). The server
-- offers only places 0 … MAX_OPEN_TRADES − 1, so however many opens race, a buyer can never hold more
-- pending trades than that: the loser of a race for a place gets a unique violation and tries the next.
-- A trade that leaves pending leaves the index, which frees its place; nothing has to be counted down.
--
-- Deploy: stop processes of the previous version before this runs. They open trades without a place,
-- which the CHECK below refuses.
ALTER TABLE trades ADD COLUMN buyer_place smallint CHECK (buyer_place >= 0);

-- Trades pending now take places in the order they were opened (a buyer may hold more than the new
-- limit; those keep their trades, and open no more until they are under it).
UPDATE trades AS t SET buyer_place = placed.place
FROM (
  SELECT id, row_number() OVER (PARTITION BY buyer_id ORDER BY created_at, id) - 1 AS place
  FROM trades WHERE status = 'pending'
) AS placed
WHERE t.id = placed.id;

ALTER TABLE trades ADD CONSTRAINT trades_pending_have_a_place CHECK (status <> 'pending' OR buyer_place IS NOT NULL);
CREATE UNIQUE INDEX trades_buyer_places ON trades (buyer_id, buyer_place) WHERE status = 'pending';
