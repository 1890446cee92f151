-- Usernames are unique whatever their case ("Alpha" and "ALPHA" are one name), while each keeps
-- the case its owner typed. Names that already clash are kept by their oldest holder; every
-- later one gets a suffix from its account id (still 3-20 letters, digits and underscores), so
-- that the unique index below can be built.
WITH ranked AS (
  SELECT id, username,
         row_number() OVER (PARTITION BY lower(username) ORDER BY created_at, id) AS n
  FROM profiles
  WHERE username IS NOT NULL
)
UPDATE profiles p
   SET username = left(r.username, 11) || '_' || left(replace(p.id::text, '-', ''), 8),
       updated_at = now()
  FROM ranked r
 WHERE p.id = r.id AND r.n > 1;

CREATE UNIQUE INDEX profiles_username_lower_key ON profiles (lower(username));
