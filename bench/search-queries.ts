// The mixed set of typical searches the search benches ask (bench/search.ts, bench/search-cost.ts):
// rare and common words, phrases with stop words, `or`, exclusions, relevance, later pages.

export const ENTRY_QUERIES = [
  'search=plague',
  'search=lute+or+theorbo',
  'search=%22and+so+to+bed%22',
  'search=%22and+so+to+bed%22&page=5',
  'search=king+-queen',
  'search=fire&ordering=relevance',
  'search=the',
  'search=the&page=20',
  'search=wife+dinner&start=1665-01-01&end=1665-12-31',
  'search=theorbo',
  'search=%22my+lord%22+sandwich&ordering=relevance&page=2',
  'search=musique+or+music+-church',
];

export const TOPIC_QUERIES = ['search=plague', 'search=king&ordering=relevance', 'search=street+or+lane&page=2'];
