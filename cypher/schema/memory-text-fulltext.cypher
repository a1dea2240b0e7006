// Full-text index for Recall (and Synapse's keyword overlap): content, tags and
// people, plus storeKey (one exact token per store) so a query is scoped to its
// store inside Lucene: `+storeKey:<key>^0 +(content:(…) tags:(…) people:(…))`.
// The 'english' analyzer lowercases, drops English stop words and Porter-stems ("running" finds "run");
// Lucene scores with BM25. Not eventually consistent, so a memory is findable as soon as its store commits.
// params: none
// returns: none
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS
FOR (m:Memory) ON EACH [m.content, m.tags, m.people, m.storeKey]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}}
