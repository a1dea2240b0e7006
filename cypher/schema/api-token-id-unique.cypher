// An API token is found by its lookup prefix, which is unique.
// params: none
// returns: none
CREATE CONSTRAINT api_token_id_unique IF NOT EXISTS FOR (t:ApiToken) REQUIRE t.id IS UNIQUE
