-- Decide-and-charge in one round trip: lock the budget periods' rows (created when missing, in key
-- order, so two decisions never wait on each other in a cycle), refuse when one is exhausted, else
-- insert the charge (once by id) and add it to them. One statement, so one transaction.
-- budgets: [{"key", "periodStart", "tokens"?, "shell"?, "cost"?, "block"}] (limits absent: none);
-- charge: a team_charges row as JSON. Returns the spend after, and whether it was refused.

CREATE FUNCTION alfred_percent(used numeric, lim numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN lim IS NULL THEN NULL WHEN lim > 0 THEN floor(used * 100 / lim + 0.000000001) WHEN used > 0 THEN 100 ELSE 0 END
$$;

CREATE FUNCTION alfred_decide(budgets jsonb, charge jsonb, may_refuse boolean)
RETURNS TABLE (budget text, period_start timestamptz, tokens bigint, shell bigint, cost_usd numeric, refused boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  is_refused boolean := false;
  added team_charges;
BEGIN
  INSERT INTO team_usage AS u (budget, period_start)
    SELECT b->>'key', (b->>'periodStart')::timestamptz FROM jsonb_array_elements(budgets) AS b ORDER BY 1, 2
    ON CONFLICT DO NOTHING;
  PERFORM 1 FROM team_usage AS u
    WHERE (u.budget, u.period_start) IN (SELECT b->>'key', (b->>'periodStart')::timestamptz FROM jsonb_array_elements(budgets) AS b)
    ORDER BY u.budget, u.period_start FOR UPDATE;
  IF may_refuse THEN
    SELECT coalesce(bool_or(
        alfred_percent(u.tokens, (b->>'tokens')::numeric) >= (b->>'block')::numeric
        OR alfred_percent(u.shell, (b->>'shell')::numeric) >= (b->>'block')::numeric
        OR alfred_percent(u.cost_usd, (b->>'cost')::numeric) >= (b->>'block')::numeric), false)
      INTO is_refused
      FROM team_usage AS u JOIN jsonb_array_elements(budgets) AS b ON u.budget = b->>'key' AND u.period_start = (b->>'periodStart')::timestamptz;
  END IF;
  IF NOT is_refused AND charge IS NOT NULL THEN
    INSERT INTO team_charges SELECT * FROM jsonb_populate_record(NULL::team_charges, charge) ON CONFLICT (id) DO NOTHING RETURNING * INTO added;
    IF added.id IS NOT NULL THEN
      UPDATE team_usage AS u SET tokens = u.tokens + added.tokens, shell = u.shell + added.shell, cost_usd = u.cost_usd + added.cost_usd
        FROM jsonb_array_elements(added.budgets) AS b
        WHERE u.budget = b->>'key' AND u.period_start = (b->>'periodStart')::timestamptz;
    END IF;
  END IF;
  RETURN QUERY SELECT u.budget, u.period_start, u.tokens, u.shell, u.cost_usd, is_refused FROM team_usage AS u
    WHERE (u.budget, u.period_start) IN (SELECT b->>'key', (b->>'periodStart')::timestamptz FROM jsonb_array_elements(budgets) AS b)
    ORDER BY u.budget, u.period_start;
END
$$;
