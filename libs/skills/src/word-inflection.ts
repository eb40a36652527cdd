/**
 * English inflection folding for keyword matching: a word and its inflected forms (plural, past, gerund, third
 * person) share one stem, so the keyword "deploy" matches "deploys", "deployed" and "deploying", and "log"
 * matches "logs" and "logging" — but never "catalog" or "blog", because matching is by whole word. Derivations
 * ("deployment") are left alone on purpose: they often mean something else. Non-Latin words pass unchanged.
 */
export function inflectionStem(word: string): string {
  let w = word;
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:sses|xes|ches|shes|zzes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  // A final silent e goes too, so "release", "released" and "releasing" meet at "releas".
  if (w.length > 4 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

/** "logg" → "log", "stopp" → "stop"; keeps the doubles English spells in base forms ("install", "press"). */
function undouble(stem: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(stem) && !/(?:ll|ss|zz|ff)$/.test(stem) ? stem.slice(0, -1) : stem;
}
